"""`command:` templates: where the prompt goes, without any shell or interpreter reading it.

Case files come from pull requests, so a prompt must never become code. The template runs
through `/bin/sh -c` (pipes, `&&` and `$HOME` keep working), but the prompt is not pasted into
it: each `{prompt}` becomes `"$CASEGEN_PROMPT"` and each `{prompt_file}` becomes
`"$CASEGEN_PROMPT_FILE"`, with the values in the environment. The shell expands a quoted
variable into one argument and never parses what it holds.

That alone does not stop a template from handing the argument to something that parses it
(`sh -c {prompt}`, `timeout 9 bash -lc {prompt}`, `true; eval {prompt}`, `cat {prompt_file} |
sh`). So the template is parsed (`shlex`, as the shell splits it) and every place the prompt
can reach is followed: through wrappers (`env`, `timeout`, `nice`, `sudo`, `xargs`, …, and any
word that names a shell or interpreter), along pipes (a stage fed by one that holds the prompt
reads it on stdin), into variables a template assigns, and into the code string of `sh -c
'…'`, which is parsed the same way with its `$1`, `$@` as the arguments after it. A template
is accepted only when the prompt ends as data: an argument of a program, its stdin, a file,
an environment variable. What cannot be followed (subshells, `$(…)`, backticks,
here-documents, `if`/`for`/`while`/`case`, `{ …; }`) is refused whenever the template passes
the prompt at all; such logic belongs in a script the template names.
"""

from __future__ import annotations

import os
import re
import shlex
from collections.abc import Iterator

from ..errors import UserError
from ..lexicon.notation.agent_commands import INTERPRETERS
from ..lexicon.notation.agent_commands import NAMES_VARIABLE as _NAMES_VARIABLE
from ..lexicon.notation.agent_commands import PLACEHOLDER as _PLACEHOLDER

PROMPT_ENV = "CASEGEN_PROMPT"
PROMPT_FILE_ENV = "CASEGEN_PROMPT_FILE"
PLACEHOLDERS = {"prompt": PROMPT_ENV, "prompt_file": PROMPT_FILE_ENV}


def _names(text: str) -> frozenset[str]:
    return frozenset(text.split())


#: What a placeholder stands for while the template is parsed (a plain word to `shlex`).
_MARKER = "__casegen_placeholder__"

#: Programs that read code: shells (`-c CODE`, a script path, or stdin) ...
SHELLS = _names(
    "sh bash dash zsh ksh mksh pdksh oksh yash posh ash busybox-sh fish tcsh csh rc es "
    "elvish nu xonsh pwsh powershell"
)
# ... interpreters (a code flag, a script path as first operand, or stdin): `INTERPRETERS`,
# imported from the lexicon ...
#: ... interpreters whose first operand is code, not a script path ...
_CODE_FIRST = _names("awk gawk mawk nawk sed gsed")
#: ... builtins that run their operands as code (`eval`, `trap`) or a file (`source`) ...
_EVALS = frozenset({"eval", "trap", "source", ".", "alias", "fc", "let"})
#: ... and programs that join their operands into a command for a shell (here or remote), or
#: read commands from any operand or stdin.
_JOINERS = _names(
    "ssh su runuser watch parallel tmux screen script at batch dtach abduco entr "
    "systemd-run xterm x-terminal-emulator gnome-terminal konsole sg newgrp ed ex bc dc "
    "sqlite3 psql mysql gdb vim vi nvim emacs m4"
)
#: Programs that run the command their operands name (the prompt must not be that command).
_WRAPPERS = _names(
    "env timeout gtimeout nice ionice renice stdbuf sudo doas pkexec nohup setsid time "
    "command builtin exec unbuffer chrt taskset flock chroot prlimit nsenter unshare "
    "strace ltrace valgrind catchsegv torsocks proxychains proxychains4 numactl firejail "
    "bwrap cpulimit chpst setpriv busybox fakeroot faketime caffeinate nocache trickle !"
)
#: Wrapper options that take the next word as their value.
_VALUED = {
    "env": {"-u", "--unset", "-C", "--chdir", "-S", "--split-string"},
    "timeout": {"-s", "--signal", "-k", "--kill-after"},
    "gtimeout": {"-s", "--signal", "-k", "--kill-after"},
    "nice": {"-n", "--adjustment"},
    "ionice": {"-c", "--class", "-n", "--classdata", "-p", "-P", "-u"},
    "stdbuf": {"-i", "-o", "-e", "--input", "--output", "--error"},
    "sudo": {"-u", "-g", "-C", "-D", "-h", "-p", "-r", "-t", "-U", "-T", "--user", "--group"},
    "doas": {"-u", "-C"},
    "chrt": {"-T", "-P", "-D"},
    "taskset": {"-c", "--cpu-list"},
    "flock": {"-w", "--timeout", "-E", "--conflict-exit-code"},
    "prlimit": {"-p", "--pid"},
    "strace": {"-o", "-e", "-p", "-s", "-u", "-E"},
    "ltrace": {"-o", "-e", "-p", "-s", "-u"},
    "numactl": {"-C", "-N", "-m", "-i", "-p"},
    "setpriv": {"--reuid", "--regid", "--groups", "--inh-caps", "--bounding-set"},
    "xargs": {"-a", "--arg-file", "-d", "--delimiter", "-E", "-I", "-L", "-n", "-P", "-s"},
    "nsenter": {"-t", "--target"},
    "exec": {"-a"},
    "chpst": {"-u", "-U", "-e", "-n", "-l", "-L", "-m", "-d", "-o", "-p", "-f", "-c", "-t"},
}
#: Wrappers with positional operands before the command (`timeout 30 CMD`, `flock FILE CMD`).
_POSITIONALS = {"timeout": 1, "gtimeout": 1, "chrt": 1, "taskset": 1, "flock": 1, "chroot": 1}
#: Flags after which the next operand is code (`su -c`, `flock -c`, `perl -e`, `script -c`).
_CODE_FLAGS = frozenset(
    {"-c", "-e", "--eval", "--command", "-Command", "-EncodedCommand", "--exec"}
)
#: Flags after which the rest of the words is a command (`find -exec`).
_COMMAND_FLAGS = frozenset({"-exec", "-execdir", "-ok", "-okdir"})
#: Builtins that assign the variables their operands name (a variable holding the prompt).
_ASSIGNING = _names("read mapfile readarray printf getopts declare typeset local export readonly")
_COMPOUND = _names(
    "if then else elif fi for select while until do done case esac { } [[ ]] function coproc"
)
_ASSIGNMENT = re.compile(r"^([A-Za-z_][A-Za-z0-9_]*)(?:\[[^]]*\])?\+?=")
_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")
_SEPARATORS = frozenset({";", "&", "&&", "||", "\n", ";;", ";&", ";;&"})
_PIPES = frozenset({"|", "|&"})
_INPUT = frozenset({"<", "<>", "<&", "<<<"})
_OUTPUT = frozenset({">", ">>", ">&", "&>", "&>>", ">|"})
_PUNCTUATION = "();<>|&\n"


class _Refused(Exception):
    def __init__(self, message: str, hint: str) -> None:
        super().__init__(message)
        self.message, self.hint = message, hint


_DATA_HINT = (
    "pass the prompt as data: as an argument of the agent (`agent {prompt}`), a file "
    '(`agent --file {prompt_file}`), or "$CASEGEN_PROMPT" inside a script the template names'
)


class _Scope:
    """What holds the prompt while one piece of shell code is followed."""

    def __init__(self, names: set[str], positionals: set[str]) -> None:
        self.names = names
        """Variables that may hold the prompt (its own two, and any the code assigns)."""
        self.positionals = positionals
        """`$1`, `$@`, … that hold it (inside `sh -c '…' sh {prompt}`)."""

    @staticmethod
    def tainted(word: str) -> bool:
        return _MARKER in word

    def mentioned(self, code: str) -> bool:
        """Whether `code` names anything that holds the prompt (quoted or not)."""
        return _MARKER in code or any(
            m.group(2) in self.names or m.group(2) in self.positionals or m.group(1)
            for m in _EXPANSION.finditer(code)
        )

    def mark(self, code: str) -> str:
        """`code` with each expansion the shell performs on it (outside '…') of something
        holding the prompt replaced by the marker: what reaches a word after splitting."""
        out: list[str] = []
        quote: str | None = None
        at = 0
        while at < len(code):
            char = code[at]
            if quote != "'" and char == "\\":
                out.append(code[at : at + 2])
                at += 2
                continue
            if quote is None and char in "'\"":
                quote = char
            elif quote is not None and char == quote:
                quote = None
            elif quote != "'" and char == "$":
                match = _EXPANSION.match(code, at)
                if match and (
                    match.group(1)
                    or match.group(2) in self.names
                    or match.group(2) in self.positionals
                ):
                    out.append(_MARKER)
                    at = match.end()
                    continue
            out.append(char)
            at += 1
        return "".join(out)


#: `$NAME`, `${NAME`, `$1`, `$@`, and `${!…}` (indirection: whatever it names).
_EXPANSION = re.compile(r"\$(?:\{(!)?)?([A-Za-z_][A-Za-z0-9_]*|[0-9@*])?")


def _tokens(code: str) -> list[str]:
    lexer = shlex.shlex(code, posix=True, punctuation_chars=_PUNCTUATION)
    lexer.whitespace = " \t\r"
    lexer.whitespace_split = True
    lexer.commenters = ""
    try:
        tokens = list(lexer)
    except ValueError as exc:  # an unclosed quote
        raise _Refused(
            f"the template is not valid shell ({exc})", "close every quote it opens"
        ) from None
    kept: list[str] = []
    comment = False
    for token in tokens:
        if token == "\n":
            comment = False
        elif comment or token.startswith("#"):
            comment = True
            continue
        kept.append(token)
    return kept


def _is_operator(token: str) -> bool:
    return bool(token) and all(c in _PUNCTUATION for c in token)


def _pipelines(tokens: list[str]) -> Iterator[list[tuple[list[str], list[tuple[str, str]]]]]:
    """Pipelines of simple commands: (words, redirections as (operator, target))."""
    pipeline: list[tuple[list[str], list[tuple[str, str]]]] = []
    words: list[str] = []
    redirects: list[tuple[str, str]] = []
    at = 0
    while at < len(tokens):
        token = tokens[at]
        if _is_operator(token):
            if token in _PIPES or token in _SEPARATORS:
                pipeline.append((words, redirects))
                words, redirects = [], []
                if token in _SEPARATORS:
                    yield pipeline
                    pipeline = []
            elif token in _INPUT or token in _OUTPUT:
                target = tokens[at + 1] if at + 1 < len(tokens) else ""
                redirects.append((token, target))
                at += 1
            elif token.startswith("<<"):
                raise _Refused("a here-document in the template is not followed", _DATA_HINT)
            else:  # `(`, `)`, `$(`, `<(`: subshells and substitutions
                raise _Refused(
                    f"`{token}` (a subshell or substitution) in the template is not followed",
                    _DATA_HINT + "; put pipelines that need it in a script",
                )
        else:
            if "`" in token:
                raise _Refused(
                    "a backtick substitution in the template is not followed", _DATA_HINT
                )
            words.append(token)
        at += 1
    pipeline.append((words, redirects))
    yield pipeline


def _check_code(code: str, scope: _Scope) -> None:
    """Follow the prompt through `code` (the template, or a `sh -c` string inside it)."""
    # Every variable the code assigns may hold the prompt: no data flow is guessed at.
    tokens = _tokens(code)
    for at, token in enumerate(tokens):
        match = _ASSIGNMENT.match(token)
        if match:
            scope.names.add(match.group(1))
        elif token in _ASSIGNING:
            for word in tokens[at + 1 :]:
                if _is_operator(word):
                    break
                name = _ASSIGNMENT.match(word)
                if name or _NAME.match(word):
                    scope.names.add(name.group(1) if name else word)
    if not scope.mentioned(code):
        return
    for pipeline in _pipelines(_tokens(scope.mark(code))):
        stdin = False
        for words, redirects in pipeline:
            if words and words[0] in _COMPOUND:
                raise _Refused(
                    f"`{words[0]}` (a compound command) in the template is not followed",
                    _DATA_HINT + "; put that logic in a script",
                )
            for operator, target in redirects:
                if operator in _INPUT and scope.tainted(target):
                    stdin = True
            _command(words, stdin, scope)
            stdin = stdin or any(scope.tainted(w) for w in words)


def _name(word: str) -> str:
    return os.path.basename(word)


def _runner(name: str) -> bool:
    return (
        name in SHELLS
        or bool(INTERPRETERS.match(name))
        or name in _EVALS
        or name in _JOINERS
        or name == "xargs"
    )


def _command(words: list[str], stdin: bool, scope: _Scope) -> None:
    """One simple command: where do its tainted words (and a tainted stdin) end up?"""
    at = 0
    while at < len(words) and _ASSIGNMENT.match(words[at]):
        at += 1
    while at < len(words):
        word = words[at]
        if scope.tainted(word):
            raise _Refused("the prompt would be the program to run", _DATA_HINT)
        name = _name(word)
        rest = words[at + 1 :]
        if _runner(name):
            return _run(name, rest, stdin, scope)
        # a wrapper's options are not known in full: a shell or interpreter named anywhere
        # after it is followed as well as the command its known options lead to
        _arguments(rest, stdin, scope)
        if name not in _WRAPPERS:
            return None
        at = _after_wrapper(name, words, at + 1, scope)


def _after_wrapper(name: str, words: list[str], at: int, scope: _Scope) -> int:
    """The index of the command a wrapper runs (its options and operands skipped)."""
    valued = _VALUED.get(name, set())
    positionals = _POSITIONALS.get(name, 0)
    while at < len(words):
        word = words[at]
        if word == "--":
            return at + 1
        if name == "env" and word in {"-S", "--split-string"} and at + 1 < len(words):
            if scope.tainted(words[at + 1]):
                raise _Refused("the prompt would be the command `env -S` splits", _DATA_HINT)
            _command(_tokens(words[at + 1]) + words[at + 2 :], False, scope)
            return len(words)
        if word.startswith(("-", "+")) and len(word) > 1:
            at += 2 if word in valued else 1
        elif name == "env" and _ASSIGNMENT.match(word):
            at += 1
        elif positionals:
            positionals -= 1
            at += 1
        else:
            return at
    return at


def _arguments(words: list[str], stdin: bool, scope: _Scope) -> None:
    """A program's arguments are data, except where a flag takes code or a command, and
    except from a word naming a shell or interpreter on (an unknown wrapper runs it)."""
    for at, word in enumerate(words):
        if word in _COMMAND_FLAGS:
            return _command(words[at + 1 :], False, scope)
        if word in _CODE_FLAGS and _operand_tainted(words[at + 1 :], scope):
            raise _Refused(f"the prompt is given to `{word}`, which runs it as code", _DATA_HINT)
        if _runner(_name(word)) and any(scope.tainted(w) for w in words[at + 1 :]):
            return _run(_name(word), words[at + 1 :], stdin, scope)
    return None


def _operand_tainted(words: list[str], scope: _Scope) -> bool:
    """Whether the first operand (options skipped) holds the prompt."""
    for word in words:
        if word == "--" or (word.startswith(("-", "+")) and len(word) > 1):
            continue
        return scope.tainted(word)
    return False


def _run(name: str, words: list[str], stdin: bool, scope: _Scope) -> None:
    tainted = [w for w in words if scope.tainted(w)]
    if name in _EVALS:
        if tainted:
            raise _Refused(f"the prompt is given to `{name}`, which runs it as code", _DATA_HINT)
        return None
    if name in _JOINERS:
        if tainted or stdin:
            raise _Refused(
                f"the prompt is given to `{name}`, which hands it to a shell", _DATA_HINT
            )
        return None
    if name == "xargs":
        return _xargs(words, stdin, scope)
    return _interpreter(name, words, stdin, scope)


def _xargs(words: list[str], stdin: bool, scope: _Scope) -> None:
    """`xargs CMD`: CMD gets its stdin (or `-a FILE`) as more arguments."""
    start = _after_wrapper("xargs", words, 0, scope)
    options = words[:start]
    fed = stdin or any(scope.tainted(w) for w in options)
    command = list(words[start:]) or ["echo"]
    if fed:
        replace = [options[i + 1] for i, w in enumerate(options[:-1]) if w in {"-I", "-i"}]
        replace += [w[2:] for w in options if w.startswith("-I") and len(w) > 2]
        command = [_MARKER if any(r and r in w for r in replace) else w for w in command]
        command.append(_MARKER)
    _command(command, False, scope)


def _interpreter(name: str, words: list[str], stdin: bool, scope: _Scope) -> None:
    """A shell or interpreter: code comes from a code flag's operand, the first operand
    (a script path; code itself for awk/sed), or stdin."""
    shell = name in SHELLS
    valued = _SHELL_VALUED if shell else _INTERPRETER_VALUED
    flag: str | None = None
    reads_stdin = False
    at = 0
    while at < len(words):
        word = words[at]
        if word in {"--", "-"}:
            at += 1
            reads_stdin = reads_stdin or word == "-"
            break
        if not (word.startswith(("-", "+")) and len(word) > 1):
            break
        value = words[at + 1] if word in valued and at + 1 < len(words) else None
        if scope.tainted(word) or (value is not None and scope.tainted(value)):
            raise _Refused(f"the prompt is an option of `{name}`, which may run it", _DATA_HINT)
        if not shell and word == "-m":  # `python -m module ARGS`: the rest is data
            return None
        cluster = word[1:] if not word.startswith("--") else ""
        if (
            word in _CODE_FLAGS
            or word == "--print"
            or (cluster and ("c" in cluster if shell else cluster[-1] in "cep"))
        ):
            flag = word
        if shell and cluster and "s" in cluster:
            reads_stdin = True
        at += 2 if value is not None else 1
    operands = words[at:]
    if flag is not None or name in _CODE_FIRST:
        if not operands:
            return None
        if scope.tainted(operands[0]):
            raise _Refused(
                f"the prompt is given to `{name} {flag}`, which runs it as code"
                if flag is not None
                else f"the prompt is the program `{name}` runs",
                _DATA_HINT,
            )
        if shell:
            # the code string is shell: follow the prompt into it, `$1` and on as its args
            positionals = {str(i) for i, w in enumerate(operands[1:]) if scope.tainted(w)}
            if positionals - {"0"}:
                positionals |= {"@", "*"}
            _check_code(operands[0], _Scope(set(scope.names), positionals))
        return None
    if not operands or reads_stdin:
        if stdin:
            raise _Refused(
                f"the prompt reaches `{name}` on its standard input, where it runs as code",
                _DATA_HINT,
            )
        return None
    if scope.tainted(operands[0]):
        raise _Refused(f"the prompt is the script `{name}` runs", _DATA_HINT)
    return None


_SHELL_VALUED = frozenset({"-o", "+o", "-O", "+O", "--rcfile", "--init-file"})
_INTERPRETER_VALUED = frozenset(
    {"-W", "-X", "-f", "-r", "-I", "-i", "--require", "--import", "-M", "-x", "--eval"}
)


def _placement(template: str, where: str) -> None:
    """A placeholder must be a whole, unquoted word (what `render_command` replaces)."""
    for match in _PLACEHOLDER.finditer(template):
        name, variable = match.group(1), PLACEHOLDERS[match.group(1)]
        quote = _quote_at(template, match.start())
        if quote is not None:
            inner = "$" + variable if quote == '"' else f"'\"${variable}\"'"
            raise UserError(
                f"{where}: {{{name}}} sits inside {quote}…{quote} quotes, where the shell would "
                "read the case's text as code",
                hint=f"write {{{name}}} as a word of its own, unquoted (casegen passes it as one "
                f"argument), or use the variable: {quote}…{inner}…{quote}",
            )
        if not _bare_word(template, match.start(), match.end()):
            raise UserError(
                f"{where}: {{{name}}} is part of a longer word",
                hint=f"write {{{name}}} as a word of its own (`--prompt {{{name}}}`), or use "
                f'the variable inside double quotes: --prompt="${variable}"',
            )


def _quote_at(template: str, position: int) -> str | None:
    """The quote (`'` or `"`) open at `position` in a POSIX shell word, or None."""
    state: str | None = None
    i = 0
    while i < position:
        char = template[i]
        if state != "'" and char == "\\":
            i += 2
            continue
        if state is None and char in "'\"":
            state = char
        elif state is not None and char == state:
            state = None
        i += 1
    return state


def _bare_word(template: str, start: int, end: int) -> bool:
    before = template[start - 1] if start > 0 else " "
    after = template[end] if end < len(template) else " "
    return (before.isspace() or before in "|&;") and (after.isspace() or after in "|&;<>")


def check_template(template: str, spec: str | None = None) -> None:
    """Refuse a template that would let a shell or interpreter read case content as code.

    Raises:
        UserError: no placeholder; a placeholder inside quotes or a longer word; the prompt
            reaching code (directly, through a wrapper, a pipe, a variable or a `sh -c`
            string); shell the check does not follow; with what to write instead.
    """
    where = f"`{spec or template}`"
    if not _PLACEHOLDER.search(template) and not _NAMES_VARIABLE.search(template):
        raise UserError(
            f"{where}: the command has no {{prompt}} placeholder",
            hint='write where the prompt goes, e.g. command:"claude -p {prompt}" (or '
            "{prompt_file} for a file holding it, or $CASEGEN_PROMPT inside a script)",
        )
    _placement(template, where)
    try:
        _check_code(
            _PLACEHOLDER.sub(_MARKER, template), _Scope({PROMPT_ENV, PROMPT_FILE_ENV}, set())
        )
    except _Refused as refused:
        raise UserError(f"{where}: {refused.message}", hint=refused.hint) from None


def render_command(template: str) -> str:
    """The shell command: every placeholder replaced by its quoted variable reference.

    The prompt itself goes into the environment (`command_env`); it never enters the string.
    """
    return _PLACEHOLDER.sub(lambda m: f'"${PLACEHOLDERS[m.group(1)]}"', template)


def shown_command(template: str, prompt: str, prompt_file: str) -> str:
    """The command as a person would type it, for the results (never executed)."""
    values = {"prompt": prompt, "prompt_file": prompt_file}
    return _PLACEHOLDER.sub(lambda m: shlex.quote(values[m.group(1)]), template)


__all__ = [
    "INTERPRETERS",
    "PLACEHOLDERS",
    "PROMPT_ENV",
    "PROMPT_FILE_ENV",
    "SHELLS",
    "check_template",
    "render_command",
    "shown_command",
]
