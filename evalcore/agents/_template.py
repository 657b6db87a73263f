"""`command:` templates: where the prompt goes, without the shell ever reading it.

Case files come from pull requests, so a prompt must never become code. The template runs
through `/bin/sh -c` (pipes, `&&` and `$HOME` keep working), but the prompt is not pasted into
it: each `{prompt}` becomes `"$CASEGEN_PROMPT"` and each `{prompt_file}` becomes
`"$CASEGEN_PROMPT_FILE"`, with the values in the environment. The shell expands a quoted
variable into one argument and never parses what it holds, so `$(…)`, backticks and quotes in
a prompt stay text.

A placeholder is accepted only as a whole, unquoted word. Inside quotes (`"Task: {prompt}"`,
`sh -c "echo {prompt}"`) or inside a longer word (`--prompt={prompt}`) pasting would be
unsafe or ambiguous, so such templates are refused with what to write instead; so is a
placeholder given to an interpreter as code (`sh -c {prompt}`, `eval {prompt}`).
"""

from __future__ import annotations

import re
import shlex

from ..errors import UserError

PROMPT_ENV = "CASEGEN_PROMPT"
PROMPT_FILE_ENV = "CASEGEN_PROMPT_FILE"
PLACEHOLDERS = {"prompt": PROMPT_ENV, "prompt_file": PROMPT_FILE_ENV}

_PLACEHOLDER = re.compile(r"\{(prompt|prompt_file)\}")
_NAMES_VARIABLE = re.compile(r"\$\{?(CASEGEN_PROMPT|CASEGEN_PROMPT_FILE)\b")
_CODE_FLAGS = {"-c", "-e", "--eval"}
_INTERPRETER = re.compile(
    r"^(?:.*/)?(?:sh|bash|dash|zsh|ksh|fish|python[\d.]*|node|perl|ruby|php)$"
)
_OPERATORS = {"|", "||", "&", "&&", ";"}


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
    return before.isspace() and after.isspace()


def _runs_as_code(template: str, start: int) -> str | None:
    """The word before the placeholder when it hands its argument to an interpreter as code."""
    words = template[:start].split()
    for at in range(len(words) - 1, -1, -1):
        if words[at] in _OPERATORS:
            words = words[at + 1 :]
            break
    if not words:
        return None
    if words[-1] == "eval":
        return "eval"
    if words[-1] in _CODE_FLAGS and _INTERPRETER.match(words[0]):
        return f"{words[0]} {words[-1]}"
    return None


def check_template(template: str, spec: str | None = None) -> None:
    """Refuse a template that would put case content where the shell could read it.

    Raises:
        UserError: no placeholder; a placeholder inside quotes, inside a longer word, or given
            to an interpreter as code; with what to write instead.
    """
    where = f"`{spec or template}`"
    found = list(_PLACEHOLDER.finditer(template))
    if not found and not _NAMES_VARIABLE.search(template):
        raise UserError(
            f"{where}: the command has no {{prompt}} placeholder",
            hint='write where the prompt goes, e.g. command:"claude -p {prompt}" (or '
            "{prompt_file} for a file holding it, or $CASEGEN_PROMPT inside a script)",
        )
    for match in found:
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
        flag = _runs_as_code(template, match.start())
        if flag is not None:
            raise UserError(
                f"{where}: {{{name}}} is given to `{flag}`, which runs it as code",
                hint="pass the prompt as data: as an argument of the agent, or "
                f'"${variable}" inside a script the template names',
            )


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
    "PLACEHOLDERS",
    "PROMPT_ENV",
    "PROMPT_FILE_ENV",
    "check_template",
    "render_command",
    "shown_command",
]
