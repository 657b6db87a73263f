"""The tasks a person uses an Agent Skill for, read from the skill whole, and what a correct
agent's work on each must show.

    tasks = skill_tasks(project, skill)

A skill whose description quotes no trigger phrases ("Use when the user says ...") still says
what it is for: the gerund phrases of its description's task clause ("Use when building
...", "Supports verifying ..., capturing ...") and of the list items that describe its
bundled example files ("`logging.py` - Capturing console logs"). Each becomes one task,
in the skill's own words. A task asks for code in a language the skill's code is written
in (one task per language where the skill's code comes in two), at a path the prompt names,
so every check below holds for every correct agent and fails for one that writes nothing:

- the file exists at that path (the person asked for it there);
- Python compiles (`python3 -m py_compile`, safe: it runs nothing of the file);
- the file imports the library the skill's code of that language imports in most blocks
  (its examples: the example's own imports);
- the calls the skill's do-lines prescribe (one call per line, shown in the skill's code of
  that language, and followed by the example where the task comes from one) and none of
  the calls its don't-lines warn about (in a file whose code is in that language).

A task taken from an example that opens an input file at a path the person supplies (a web
page: `'path/to/your/file.html'`) needs such a file: its `inputs` name one the starter
project holds (`base44_starter.INPUT_FILES`), and the prompt asks for the work on it.
"""

from __future__ import annotations

import ast
import re
import sys
from collections import Counter
from dataclasses import dataclass, replace
from pathlib import Path

from evalcore.definitions import AgentSkill, Project, SkillElement
from evalcore.lexicon.en.skill_contents import (
    ANY_DETERMINER,
    CLAUSE_END,
    GERUND,
    IMPERATIVE_HEADING,
    OBJECT_END,
    SCOPED_LINE,
    STEP_PREFIX,
    SUBJECT_API,
    TASK_LEAD,
    TASK_SPLIT,
)
from evalcore.lexicon.en.stop_words import TASK_PHRASE as _STOP
from evalcore.lexicon.notation.input_paths import (
    OUTPUT_PATH_ARG,
    PAGE_LITERAL,
    SCHEME_BUILDERS,
    URL_SCHEME,
)
from evalcore.lexicon.notation.library_defaults import KEYWORD_DEFAULTS

from .base44_starter import INPUT_FILES, SUBJECT_FILES
from .base44_targets import word_set

#: Code-block languages of programs: (file extension, name a person writes).
LANGUAGES = {
    "python": (".py", "Python"),
    "py": (".py", "Python"),
    "typescript": (".ts", "TypeScript"),
    "ts": (".ts", "TypeScript"),
    "javascript": (".js", "JavaScript"),
    "js": (".js", "JavaScript"),
    "go": (".go", "Go"),
    "rust": (".rs", "Rust"),
    "ruby": (".rb", "Ruby"),
    "java": (".java", "Java"),
}
_BY_EXT = {ext: lang for lang, (ext, _) in LANGUAGES.items() if len(lang) > 2}
#: Code-block languages of data a skill tells the agent to produce: (extension, name).
FORMATS = {"xml": (".xml", "XML"), "json": (".json", "JSON"), "yaml": (".yaml", "YAML")}
_TAG = re.compile(r"<([A-Za-z_][\w.-]*)[\s>/]")
MAX_TASKS = 8
MAX_EXAMPLE_CHARS = 200_000
_WORD = re.compile(r"[A-Za-z0-9]+")
_PAREN = re.compile(r"\s*\([^)]*\)")
_CALL = re.compile(r"(?<![\w.])([A-Za-z_$][\w$.]*)\(([^()]*)\)")
_SPAN = re.compile(r"`([^`\n]+)`")
_QUOTED_ARG = re.compile(r"^\s*(['\"])([^'\"]*)\1\s*$")
_KEYWORD_ARG = re.compile(r"^\s*(\w+)\s*=\s*(\w+)\s*$")
#: A quoted argument that names things ("button", "input, textarea"), not a path or message.
_NAME_LIST = re.compile(r"[A-Za-z][\w-]*(?:\s*,\s*[A-Za-z][\w-]*)*")
#: A quoted list of names holding one (`"button"`, `'input, textarea'`, `"input[type=text]"`),
#: not prose that mentions it (`"click every button"`): `{}` is the escaped name.
_QUOTED_NAME = r"['\"](?:[^'\"\s,]+\s*,\s*)*{}\b[^'\"\s,]*(?:\s*,\s*[^'\"\s,]+)*['\"]"


@dataclass(frozen=True)
class Task:
    phrase: str
    """The task in the skill's words ("capturing browser screenshots")."""
    file: str
    """Where it was read, relative to the skill folder, and the line."""
    line: int
    language: str
    path: str
    """The file the prompt asks for."""
    imports: str = ""
    """A regex a correct file matches: the import of the library the skill's code uses."""
    uses: str = ""
    """The name the skill's code of the language imports that its description names (a
    framework: "in Python (FastMCP)"); "" when none."""
    do: tuple[str, ...] = ()
    dont: tuple[str, ...] = ()
    unset: tuple[tuple[str, str], ...] = ()
    """(regex, the skill's setting) of settings a correct file does not make: the opposite
    of a keyword a do-line gives its library default (`launch(headless=True)` →
    `headless=False`), since a call that leaves the keyword out is as correct as the skill's."""
    example: str = ""
    format: str = ""
    """A data format (`FORMATS`) the task's file is in, instead of a program language."""
    tags: tuple[str, ...] = ()
    """XML elements the skill's sample of the format shows, outermost first."""
    context: str = ""
    """What the person is doing when they ask (the description's first task), for a task
    whose own words do not name the skill's subject."""
    inputs: tuple[str, ...] = ()
    """Input files (`INPUT_FILES` names) the task works on, from its example's own paths."""
    reads: tuple[str, ...] = ()
    """Documents (`SUBJECT_FILES` names) that make an abstract subject concrete: the person
    points at one, the code does not open it."""
    thing: str = ""
    """What a person asks to be written, in their words ("MCP server"), where the task's words
    only name the kind of work ("building MCP servers to integrate ..."); "" when the task's
    words are its request."""
    own: tuple[str, ...] = ()
    """Regexes of the calls that do what the task's words name (`_own_calls`)."""
    decorator: str = ""
    """The method decorator the skill's Python code applies most (`@mcp.tool` → "tool"),
    whatever the object is named; "" when none stands out."""
    saves: str = ""
    """The extension of the file the task's own call writes (`.screenshot(path='a.png')` →
    `.png`), so the request names where it goes; "" when it writes none."""


def skill_tasks(project: Project, skill: AgentSkill) -> list[Task]:
    """The skill's tasks, description clause first, then its described examples (deduped by
    words, at most `MAX_TASKS`)."""
    folder = Path(project.root) / skill.path
    contents = skill.contents
    languages = _languages(contents)
    named = skill.description or ""
    phrases = description_tasks(named)
    context = phrases[0] if phrases else ""
    formats = [replace(t, context=context) for t in format_tasks(contents)]
    if not languages:
        return formats[:MAX_TASKS]
    found: list[tuple[str, str, int, str]] = []  # phrase, file, line, example
    described = next((e for e in contents if e.kind == "description"), None)
    for phrase in phrases:
        found.append((phrase, "SKILL.md", described.line if described else 1, ""))
    examples = {e.file for e in contents if e.kind in ("example", "script")}
    for element in contents:
        if element.kind != "file" or not element.detail or not GERUND.search(element.detail):
            continue
        match = next((f for f in examples if f == element.text or _ends(f, element.text)), "")
        if match:
            found.append((_lower_first(element.detail), element.file, element.line, match))
    tasks: list[Task] = []
    seen: list[set[str]] = []
    for phrase, file, line, example in found:
        words = _content_words(phrase)
        if not words or any(len(words & s) >= max(1, len(words) // 2 + 1) for s in seen):
            continue
        seen.append(words)
        if example:
            language = _BY_EXT.get(Path(example).suffix.lower())
            if language is None:
                continue
            text = _read(folder / example)
            tasks.append(_task(phrase, file, line, language, contents, text, example, named))
        else:
            tasks += [
                _task(phrase, file, line, lang, contents, None, "", named) for lang in languages
            ]
    shown = [t.phrase for t in tasks if t.example and t.own]
    tasks = [t for t in tasks if t.example or t.own or not _same_object(t.phrase, shown)]
    shared = tuple(dict.fromkeys(name for t in tasks for name in t.inputs))
    tasks = [replace(t, inputs=t.inputs or shared) for t in tasks]
    tasks = [_concrete(t, _reads(t.phrase)) for t in tasks]
    for task in formats:
        words = _content_words(task.phrase)
        if not any(len(words & s) >= max(1, len(words) // 2 + 1) for s in seen):
            seen.append(words)
            reads = _reads(task.context)
            tasks.append(replace(task, reads=reads, thing=_built(task.context) if reads else ""))
    return tasks[:MAX_TASKS]


def format_tasks(contents: list[SkillElement]) -> list[Task]:
    """A sample of a data format (an `xml`/`json`/`yaml` block of SKILL.md) under a heading
    that names a task in the imperative ("Phase 4: Create Evaluations" > "Output Format"):
    the task is that heading, its file in that format, its XML elements those of the sample."""
    out: list[Task] = []
    stack: list[tuple[int, str, int]] = []  # level, heading text, line
    for element in contents:
        if element.file != "SKILL.md":
            continue
        if element.kind == "section":
            level = int(element.detail or 1)
            stack = [s for s in stack if s[0] < level] + [(level, element.text, element.line)]
            continue
        if element.kind != "code" or element.detail not in FORMATS:
            continue
        heading = next(
            (
                (STEP_PREFIX.sub("", text), line)
                for _, text, line in reversed(stack)
                if IMPERATIVE_HEADING.search(STEP_PREFIX.sub("", text))
            ),
            None,
        )
        phrase = " ".join(_sentence_case(w) for w in heading[0].split()) if heading else ""
        if heading is None or any(t.phrase == phrase for t in out):
            continue
        ext, _ = FORMATS[element.detail]
        words = [w.lower() for w in _WORD.findall(heading[0])][1:4]
        tags = tuple(dict.fromkeys(_TAG.findall(element.text)))[:4]
        out.append(
            Task(
                phrase=phrase,
                file="SKILL.md",
                line=heading[1],
                language="",
                path="_".join(words or ["output"]) + ext,
                format=element.detail,
                tags=tags if element.detail == "xml" else (),
            )
        )
    return out


def description_tasks(description: str) -> list[str]:
    """Gerund phrases of the description's task clauses ("Use when building X, whether in A
    or B" → "building X"; "Supports verifying A, debugging B, and viewing C" → three)."""
    text = _PAREN.sub("", " ".join(description.split()))
    out: list[str] = []
    for lead in TASK_LEAD.finditer(text):
        rest = text[lead.end() :]
        end = CLAUSE_END.search(rest)
        clause = rest[: end.start()] if end else rest
        pieces: list[str] = []
        for piece in TASK_SPLIT.split(clause):
            piece = piece.strip()
            if not piece:
                continue
            if GERUND.search(piece) or not pieces:
                pieces.append(piece)
            else:  # "buttons, links, and inputs": one task's list, not a new task
                pieces[-1] += f", {piece}"
        out += [_lower_first(ANY_DETERMINER.sub("a", p)) for p in pieces if GERUND.search(p)]
    return list(dict.fromkeys(out))


# --- what a task's file must show ------------------------------------------------------------


def _task(
    phrase: str,
    file: str,
    line: int,
    language: str,
    contents: list[SkillElement],
    example_text: str | None,
    example: str,
    named: str = "",
) -> Task:
    ext, _ = LANGUAGES[language]
    words = [w.lower() for w in _WORD.findall(phrase) if w.lower() not in _STOP][:3]
    joiner = "_" if ext == ".py" else "-"
    path = joiner.join(words or ["task"]) + ext
    blocks = [e.text for e in contents if e.kind == "code" and _lang(e.detail) == language]
    sample = [example_text] if example_text is not None else blocks
    imports = _import_pattern(language, sample, named)
    uses = _named_import(language, sample, named)
    code = "\n".join(blocks)
    scoped = _scoped_lines(contents)
    do = [
        p
        for e in contents
        if e.kind == "do" and (e.file, e.line) not in scoped
        for p in _call_patterns(e.text, single=True, subject=word_set(named))
        if _shown(p, code) and (example_text is None or re.search(p, example_text, re.M))
    ]
    unset = [
        p
        for e in contents
        if e.kind == "do" and (e.file, e.line) not in scoped
        for p in _unset_patterns(e.text, code, example_text)
    ]
    file_langs = _file_languages(contents)
    dont = [
        p
        for e in contents
        if e.kind == "dont" and file_langs.get(e.file) == language
        for p in _call_patterns(e.text, single=False)
    ]
    return Task(
        phrase=phrase,
        file=file,
        line=line,
        language=language,
        path=path,
        imports=imports,
        uses=uses,
        do=tuple(dict.fromkeys(do)),
        dont=tuple(d for d in dict.fromkeys(dont) if d not in do),
        unset=tuple(dict.fromkeys(unset)),
        own=(own := _own_calls(phrase, "\n".join(t for t in sample if t))),
        saves=_saves(own, "\n".join(t for t in sample if t)),
        decorator=_decorator(sample) if language == "python" else "",
        example=example,
        inputs=_inputs(example_text or ""),
    )


def _scoped_lines(contents: list[SkillElement]) -> set[tuple[str, int]]:
    """Do-lines limited to one kind of situation (`SCOPED_LINE`): the line says so, or the
    don't-line beside it (within two lines of the same file, naming a code word of it) does
    ("Don't inspect before `networkidle` on dynamic apps" / "Do wait for networkidle").
    What they prescribe holds in that situation only, so no check requires it."""
    dont = [e for e in contents if e.kind == "dont" and SCOPED_LINE.search(e.text)]
    out: set[tuple[str, int]] = set()
    for e in contents:
        if e.kind != "do":
            continue
        words = _span_words(e.text)
        if SCOPED_LINE.search(e.text) or any(
            d.file == e.file and abs(d.line - e.line) <= 2 and words & _span_words(d.text)
            for d in dont
        ):
            out.add((e.file, e.line))
    return out


def _span_words(text: str) -> set[str]:
    return {w.lower() for span in _SPAN.findall(text) for w in _WORD.findall(span) if len(w) > 3}


def _own_calls(phrase: str, code: str) -> tuple[str, ...]:
    """The calls of the task's own code (its example, else the skill's code of the language)
    that do what the task's words name: a method named by a word of the task's object
    (`capturing screenshots` → `.screenshot(`), or a method given a quoted name of it as
    its first argument (`capturing console logs` → `.on("console", ...)`; `discovering
    buttons` → `.locator('button')`; checked as the quoted name anywhere in the file, since
    a correct script may pass it through a helper or a table of selectors, or use another
    method that selects the same). A scheme the words name (`file://`) is one too. At most 3."""
    head = _head(phrase)
    words = {_stem(w) for w in _WORD.findall(head) if len(w) > 3} - {_stem(head.split()[0])}
    out: list[str] = []
    for scheme in URL_SCHEME.findall(phrase):
        if f"{scheme}://" in code:
            builder = SCHEME_BUILDERS.get(scheme)
            out.append(re.escape(f"{scheme}://") + (f"|{builder}" if builder else ""))
    for match in re.finditer(r"\.([A-Za-z_]\w*)\(\s*(?:(['\"])([^'\"]*)\2)?", code):
        name, arg = match.group(1), match.group(3) or ""
        if words & {_stem(w) for w in re.findall(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])", name)}:
            out.append(rf"\.{re.escape(name)}\(")
        if not _NAME_LIST.fullmatch(arg):  # a path, URL or message, not a name
            continue
        for word in _WORD.findall(arg):
            if _stem(word) in words:
                out.append(_QUOTED_NAME.format(re.escape(word.lower())))
    return tuple(dict.fromkeys(out))[:3]


def _decorator(texts: list[str | None]) -> str:
    """The attribute of the method decorator (`@<object>.<attr>`) the code applies most: at
    least 3 times and twice as often as any other (how the skill's code registers its parts,
    `@mcp.tool`); "" when none stands out."""
    counts: Counter[str] = Counter()
    for text in texts:
        counts.update(re.findall(r"^\s*@[A-Za-z_]\w*\.([A-Za-z_]\w*)\b", text or "", re.M))
    ranked = counts.most_common(2)
    if not ranked or ranked[0][1] < 3 or (len(ranked) > 1 and ranked[1][1] * 2 > ranked[0][1]):
        return ""
    return ranked[0][0]


def _saves(own: tuple[str, ...], code: str) -> str:
    """The extension of the file the first own method call of the code writes (its `path=`
    literal: `.screenshot(path='/tmp/a.png')` → `.png`)."""
    for pattern in own:
        name = re.fullmatch(r"\\\.(\w+)\\\(", pattern)
        if name:
            for call in re.finditer(rf"\.{name.group(1)}\(([^)]*)\)", code):
                written = OUTPUT_PATH_ARG.search(call.group(1))
                if written:
                    return written.group(1)
    return ""


def _head(phrase: str) -> str:
    """The task's verb and object, its qualifiers left off ("discovering buttons on a page"
    → "discovering buttons")."""
    return OBJECT_END.split(f" {phrase.strip()} ", maxsplit=1)[0].strip()


def task_words(phrase: str) -> list[str]:
    """The words that name a task (its verb and object, no qualifier or filler word): a
    name cut after four of them still ends on a word of the task."""
    return [w for w in _WORD.findall(_head(phrase)) if w.lower() not in _STOP]


def _same_object(phrase: str, example_phrases: list[str]) -> bool:
    """The description's task names the thing a described example's task does (its object's
    last word: "viewing browser logs" / "capturing console logs during ..."): one task, which
    the example, with its own call for it, shows better (the caller keeps a description task
    whose words name a call of their own: that is a task apart)."""
    words = _WORD.findall(_head(phrase))
    if len(words) < 2:
        return False
    last = _stem(words[-1])
    return any(last in {_stem(w) for w in _WORD.findall(_head(p))[1:]} for p in example_phrases)


def _stem(word: str) -> str:
    word = word.lower()
    return word[:-1] if word.endswith("s") and not word.endswith("ss") else word


def _concrete(task: Task, reads: tuple[str, ...]) -> Task:
    """A task made concrete by a document the person points at: it asks for the thing its
    words build, singular (`building MCP servers` → "MCP server"), at a file named after it."""
    words = _WORD.findall(_head(task.phrase))[1:]
    if not reads or not words:
        return replace(task, reads=reads)
    words[-1] = _singular(words[-1])
    ext = Path(task.path).suffix
    path = ("_" if ext == ".py" else "-").join(w.lower() for w in words[:3]) + ext
    return replace(task, reads=reads, thing=" ".join(words), path=path)


def _built(context: str) -> str:
    """The thing a context's words build, singular (`building MCP servers to ...` → "MCP
    server"): what a task on a document's work (evaluating it) is about."""
    words = _WORD.findall(_head(context))[1:]
    return " ".join([*words[:-1], _singular(words[-1])]) if words else ""


def _singular(word: str) -> str:
    """One of a plural noun ("servers" → "server", "libraries" → "library", "APIs" → "API")."""
    if word.endswith("ies") and len(word) > 4:
        return word[:-3] + "y"
    return word[:-1] if word.endswith("s") and not word.endswith("ss") else word


def _reads(phrase: str) -> tuple[str, ...]:
    """The document that makes the task's abstract subject concrete (`SUBJECT_FILES`)."""
    return (SUBJECT_FILES["api"][0],) if SUBJECT_API.search(phrase) else ()


def _inputs(example_text: str) -> tuple[str, ...]:
    """The starter input files an example needs: one per kind of file it opens at a quoted
    path of its own (`INPUT_FILES`, by extension)."""
    names = []
    for match in PAGE_LITERAL.finditer(example_text):
        entry = INPUT_FILES.get(Path(match.group(2)).suffix.lower())
        if entry:
            names.append(entry[0])
    return tuple(dict.fromkeys(names))


def kind_name(task: Task) -> str:
    """The language or format a person names for the task's file ("Python", "XML")."""
    return FORMATS[task.format][1] if task.format else LANGUAGES[task.language][1]


def _lang(name: str) -> str | None:
    entry = LANGUAGES.get(name)
    return _BY_EXT.get(entry[0]) if entry else None


def _languages(contents: list[SkillElement]) -> list[str]:
    """Program languages of the skill's code blocks and examples, most used first; a second
    one only when it has at least a third of the first's blocks (at most two)."""
    counts: Counter[str] = Counter()
    for e in contents:
        if e.kind == "code" and _lang(e.detail):
            counts[_lang(e.detail) or ""] += 1
        elif e.kind == "example" and Path(e.file).suffix.lower() in _BY_EXT:
            counts[_BY_EXT[Path(e.file).suffix.lower()]] += 1
    ranked = counts.most_common()
    if not ranked:
        return []
    top = ranked[0][1]
    return [lang for lang, n in ranked[:2] if n * 3 >= top]


def _file_languages(contents: list[SkillElement]) -> dict[str, str]:
    """Each markdown file's program language (the one most of its code blocks are in)."""
    per: dict[str, Counter[str]] = {}
    for e in contents:
        lang = _lang(e.detail) if e.kind == "code" else None
        if lang:
            per.setdefault(e.file, Counter())[lang] += 1
    return {f: c.most_common(1)[0][0] for f, c in per.items()}


def _import_pattern(language: str, texts: list[str], named: str) -> str:
    """A regex for the import of the library the skill's code uses: a non-standard package
    the description names ("... using Playwright"), else the one at least half of the
    importing blocks import ("" when neither)."""
    counts: Counter[str] = Counter()
    importing = 0
    for text in texts:
        packages = _python_imports(text) if language == "python" else _js_imports(text)
        if packages:
            importing += 1
            counts.update(set(packages))
    if not counts:
        return ""
    words = {w.lower() for w in _WORD.findall(named)}
    package, n = counts.most_common(1)[0]
    by_name = [p for p, _ in counts.most_common() if p.lower().lstrip("@").split("/")[0] in words]
    if by_name:
        package = by_name[0]
    elif n * 2 < importing:
        return ""
    if language == "python":
        return rf"^\s*(?:from|import)\s+{re.escape(package)}\b"
    return r"(?:from\s+|require\(\s*)['\"]" + re.escape(package)


def _named_import(language: str, texts: list[str], named: str) -> str:
    """The first name the code imports from a library that the description names as a word
    (an identifier with two capitals at least, `FastMCP`, `McpServer`: a plain word such as
    `Context` or an acronym such as `MCP` is prose, not a name)."""
    for text in texts:
        names = _python_names(text) if language == "python" else _js_names(text)
        for name in names:
            capitals = sum(c.isupper() for c in name)
            if capitals >= 2 and not name.isupper() and re.search(rf"\b{re.escape(name)}\b", named):
                return name
    return ""


def _python_names(text: str) -> list[str]:
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError):
        return []
    return [
        alias.name
        for node in ast.walk(tree)
        if isinstance(node, ast.ImportFrom) and node.module and not node.level
        for alias in node.names
    ]


def _js_names(text: str) -> list[str]:
    names: list[str] = []
    for line in text.splitlines():
        line = line.strip()
        if line.startswith("import ") and "{" in line and "}" in line:
            inside = line.split("{", 1)[1].split("}", 1)[0]
            names += [part.split(" as ")[0].strip() for part in inside.split(",")]
    return [n for n in names if n.isidentifier()]


def _python_imports(text: str) -> list[str]:
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError):
        return []
    names: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names += [a.name.split(".")[0] for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            names.append(node.module.split(".")[0])
    return [n for n in names if n not in sys.stdlib_module_names and n != "__future__"]


def _js_imports(text: str) -> list[str]:
    found: list[str] = []
    for line in text.splitlines():
        line = line.strip()
        if not line.startswith("import ") or " from " not in line:
            continue
        spec = line.rsplit(" from ", 1)[1].strip().strip(";").strip("'\"")
        if spec.startswith("."):
            continue
        parts = spec.split("/")
        found.append("/".join(parts[:2]) if spec.startswith("@") else parts[0])
    return found


def _call_patterns(text: str, *, single: bool, subject: set[str] | None = None) -> list[str]:
    """Regexes for the calls a do / don't line names (in code spans or bare); a do-line
    with more than one call names alternatives or a list, so it gives none, unless exactly
    one of them is named by a word of the skill's `subject` (its description's words: "use
    `registerTool()`, `registerResource()`, ..." in a skill about tools → `registerTool`)."""
    spans = _SPAN.findall(text) or [text]
    calls = [m for span in spans for m in _CALL.finditer(span)]
    if single and len(calls) > 1 and subject:
        named = [c for c in calls if word_set(c.group(1).rsplit(".", 1)[-1], camel=True) & subject]
        calls = named if len(named) == 1 else calls
    if single and len(calls) != 1:
        return []
    out = []
    for call in calls:
        name = call.group(1).rsplit(".", 1)[-1]
        arg = _QUOTED_ARG.match(call.group(2))
        if len(name) < 3 or (arg and not single):  # a bad literal is an example, not an API
            continue
        prefix = r"\." if "." in call.group(1) else r"\b"
        tail = r"\(\s*['\"]" + re.escape(arg.group(2)) + r"['\"]\s*\)" if arg else r"\("
        keywords = [
            k.groups()
            for part in (call.group(2).split(",") if single and not arg else ())
            if (k := _KEYWORD_ARG.match(part))
        ]
        prescribed = [(k, v) for k, v in keywords if not _default(name, k, v)]
        if keywords and not prescribed:  # only defaults: `_unset_patterns` checks the call
            continue
        for key, value in prescribed:  # `launch(slow_mo=50)`: the setting is prescribed
            tail += rf"(?=[^)]*\b{re.escape(key)}\s*=\s*{re.escape(value)}\b)"
        out.append(prefix + re.escape(name) + tail)
    return out


def _default(name: str, key: str, value: str) -> bool:
    """The keyword's value is what the library takes when the call leaves it out."""
    known = KEYWORD_DEFAULTS.get((name, key))
    return known is not None and known[0] == value


def _unset_patterns(text: str, code: str, example_text: str | None) -> list[tuple[str, str]]:
    """For a do-line's one call (shown in the skill's code and the task's example) that gives
    keywords their library default (`launch(headless=True)`): a regex of each keyword set to
    the opposite (`headless=False`), which a correct file does not write."""
    spans = _SPAN.findall(text) or [text]
    calls = [m for span in spans for m in _CALL.finditer(span)]
    if len(calls) != 1:
        return []
    name = calls[0].group(1).rsplit(".", 1)[-1]
    if not re.search(rf"\b{re.escape(name)}\(", code) or (
        example_text is not None and not re.search(rf"\b{re.escape(name)}\(", example_text)
    ):
        return []
    out = []
    for part in calls[0].group(2).split(","):
        keyword = _KEYWORD_ARG.match(part)
        if keyword and _default(name, *keyword.groups()):
            key = keyword.group(1)
            opposite = KEYWORD_DEFAULTS[(name, key)][1]
            out.append((rf"\b{re.escape(key)}\s*=\s*{re.escape(opposite)}\b", part.strip()))
    return out


def _shown(pattern: str, code: str) -> bool:
    """The skill's own code of the language uses the call (its name at least)."""
    name = re.sub(r"\\\(.*$", "", pattern).replace("\\.", "").replace("\\b", "")
    return bool(name) and re.search(re.escape(name.replace("\\", "")) + r"\(", code) is not None


def _ends(path: str, name: str) -> bool:
    return path.endswith("/" + name)


def _content_words(text: str) -> set[str]:
    return {w.lower() for w in _WORD.findall(text) if w.lower() not in _STOP and len(w) > 2}


def _sentence_case(word: str) -> str:
    """A Title Case heading word in running text ("Evaluations" → "evaluations"; "MCP" stays)."""
    return word.lower() if word[:1].isupper() and word[1:].islower() else word


def _lower_first(text: str) -> str:
    text = text.strip().rstrip(".")
    return text[:1].lower() + text[1:] if text[1:2].islower() or len(text) == 1 else text


def _read(path: Path) -> str | None:
    """An example's text (the first `MAX_EXAMPLE_CHARS`: its imports and calls are near the
    top; a huge file is not read whole), or None when it is not a readable text file."""
    if path.is_symlink() or not path.is_file():
        return None
    try:
        with path.open(encoding="utf-8") as handle:
            return handle.read(MAX_EXAMPLE_CHARS)
    except (OSError, UnicodeDecodeError):
        return None


__all__ = [
    "FORMATS",
    "LANGUAGES",
    "Task",
    "description_tasks",
    "format_tasks",
    "kind_name",
    "skill_tasks",
    "task_words",
]
