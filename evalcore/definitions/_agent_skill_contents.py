"""An Agent Skill read whole: what its SKILL.md body and every bundled file say, with the file
and line of each element, so the planner can find the tasks a person uses the skill for and
what a correct agent's work must show.

    elements = skill_contents(ctx, folder, body, body_line)

Element kinds (`SkillElement.kind`; the reader puts the frontmatter's `description`, with
its line, first):

- `section`: a markdown heading (`detail`: its level);
- `code`: a fenced code block (`detail`: its language, `text`: its lines);
- `command`: one command line of a shell block (`$ ` prompts dropped, `\\` lines joined);
- `do` / `dont`: a line marked ✅ / ❌ or `**Do**` / `**Don't**`, a cell of a do/don't
  (correct/wrong) table column, or a code line whose comment says always / never (the code
  as a span, then the comment);
- `item`: a list item's text (markup dropped), e.g. an entry of a "When to Use" list;
- `file`: a code span naming a file (`detail`: what the list item says it is, if anything);
- `doc`: a bundled markdown file other than SKILL.md (`text`: its first heading);
- `script`: a program under `scripts/` (`detail`: its docstring's first line);
- `usage`: a usage line of a script's docstring;
- `argument`: an `add_argument` option of a script (`detail`: its help text);
- `example` / `template`: a file under `examples/` or `templates/` / `assets/`.

Scripts are parsed as text (Python with `ast`), never run or imported. Every markdown file of
the folder (any sub-folder) and every script and example is read as a source of the skill.
"""

from __future__ import annotations

import ast
import os
import re
from pathlib import Path

from ..lexicon.en.skill_contents import DO_COLUMN, DO_MARK, DONT_COLUMN, DONT_MARK
from ._context import ReadContext
from ._model_agent_skills import SkillElement

_SKIP_DIRS = {"node_modules", "__pycache__"}
_SHELLS = {"bash", "sh", "shell", "console", "zsh", "shell-session"}
_CODE_EXT = {".py", ".sh", ".js", ".mjs", ".cjs", ".ts", ".rb", ".pl"}
_EXAMPLE_DIRS = {"examples": "example", "templates": "template", "assets": "template"}
_HEADING = re.compile(r"^(#{1,6})\s+(.+?)\s*#*\s*$")
_FENCE = re.compile(r"^\s*(`{3,}|~{3,})\s*([\w+#.-]*)")
_SPAN = re.compile(r"`([^`\n]+)`")
_FILE_SPAN = re.compile(r"^(?![a-z]+:)[\w./<>@-]*\w\.[A-Za-z0-9]{1,5}$")
_ITEM = re.compile(r"^\s*(?:[-*+]|\d+[.)])\s+(.*)$")
_DESCRIBED = re.compile(r"^\W*`([^`]+)`\W*\s[-–—:]\s*(.+)$")
_MARKUP = re.compile(r"\*+|`+")


def skill_contents(
    ctx: ReadContext, folder: Path, body: str, body_line: int = 1
) -> list[SkillElement]:
    """Every element of the skill at `folder`: its SKILL.md `body` (which starts on line
    `body_line` of the file), then its bundled files in path order."""
    out = markdown_elements(body, "SKILL.md", body_line)
    for path in _bundled(folder):
        rel = path.relative_to(folder).as_posix()
        top = rel.split("/", 1)[0] if "/" in rel else ""
        if path.suffix.lower() == ".md":
            if rel == "SKILL.md":
                continue
            text = ctx.read_text(path)
            if text is not None:
                out.append(_doc(text, rel))
                out += markdown_elements(text, rel)
        elif top == "scripts" and _is_program(path):
            text = ctx.read_text(path)
            out += script_elements(text or "", rel, path.suffix.lower())
        elif top in _EXAMPLE_DIRS:
            text = ctx.read_text(path) if path.suffix.lower() in _CODE_EXT else None
            summary = _docstring(text)[0] if text and path.suffix == ".py" else ""
            out.append(SkillElement(kind=_EXAMPLE_DIRS[top], text=rel, file=rel, detail=summary))
    return out


def _bundled(folder: Path) -> list[Path]:
    found: list[Path] = []
    for current, dirs, files in os.walk(folder):
        dirs[:] = sorted(d for d in dirs if not d.startswith(".") and d not in _SKIP_DIRS)
        found += [Path(current) / f for f in files if not f.startswith(".")]
    return sorted(found, key=lambda p: p.relative_to(folder).as_posix())


def _is_program(path: Path) -> bool:
    return path.suffix.lower() in _CODE_EXT


def _doc(text: str, rel: str) -> SkillElement:
    for number, line in enumerate(text.splitlines(), 1):
        heading = _HEADING.match(line)
        if heading:
            return SkillElement(kind="doc", text=_clean(heading.group(2)), file=rel, line=number)
    return SkillElement(kind="doc", text=rel, file=rel)


# --- markdown -------------------------------------------------------------------------------


def markdown_elements(text: str, rel: str, first_line: int = 1) -> list[SkillElement]:
    """Sections, code blocks, shell commands, do/don't lines and tables, and file spans of one
    markdown text (line numbers counted from `first_line`)."""
    out: list[SkillElement] = []
    lines = text.splitlines()
    fence: tuple[str, str, int, list[str]] | None = None  # marker, language, line, lines
    table: list[tuple[int, list[str]]] = []
    for index, line in enumerate(lines):
        number = first_line + index
        opened = _FENCE.match(line)
        if fence is not None:
            if opened and opened.group(1)[0] == fence[0][0] and not opened.group(2):
                out += _code(fence[1], fence[2], fence[3], rel)
                fence = None
            else:
                fence[3].append(line)
            continue
        if opened:
            fence = (opened.group(1), opened.group(2).lower(), number, [])
            continue
        stripped = line.strip()
        if stripped.startswith("|") and stripped.endswith("|") and len(stripped) > 1:
            table.append((number, [c.strip() for c in stripped[1:-1].split("|")]))
            continue
        if table:
            out += _table(table, rel)
            table = []
        heading = _HEADING.match(line)
        if heading:
            out.append(
                SkillElement(
                    kind="section",
                    text=_clean(heading.group(2)),
                    file=rel,
                    line=number,
                    detail=str(len(heading.group(1))),
                )
            )
            continue
        out += _line(stripped, rel, number)
    if table:
        out += _table(table, rel)
    if fence is not None:  # an unclosed block runs to the end of the file
        out += _code(fence[1], fence[2], fence[3], rel)
    return out


def _code(language: str, line: int, lines: list[str], rel: str) -> list[SkillElement]:
    text = "\n".join(lines)
    out = [SkillElement(kind="code", text=text, file=rel, line=line + 1, detail=language)]
    out += _commented(lines, line + 1, rel)
    if language in _SHELLS:
        pending, start = "", 0
        for offset, raw in enumerate(lines, 1):
            part = raw.strip()
            if not pending:
                start = offset
                part = part[2:] if part.startswith("$ ") else part
                if not part or part.startswith("#"):
                    continue
            if part.endswith("\\"):
                pending += part[:-1].strip() + " "
                continue
            command = (pending + part).strip()
            pending = ""
            out.append(SkillElement(kind="command", text=command, file=rel, line=line + start))
    return out


def _commented(lines: list[str], first: int, rel: str) -> list[SkillElement]:
    """Code lines whose trailing comment says always / never do it (`launch(headless=True)
    # Always launch headless`): a do / don't of that code (`# ` and ` // ` with spaces, so a
    URL's `//` is not a comment)."""
    out: list[SkillElement] = []
    for offset, raw in enumerate(lines):
        for marker in (" # ", " // "):
            code, found, comment = raw.rpartition(marker)
            if not found or not code.strip():
                continue
            kind = _marked("**" + comment.strip())
            if kind is not None:
                text = f"`{code.strip()}` {comment.strip()}"
                out.append(SkillElement(kind=kind, text=text, file=rel, line=first + offset))
            break
    return out


def _line(stripped: str, rel: str, number: int) -> list[SkillElement]:
    out: list[SkillElement] = []
    item = _ITEM.match(stripped)
    content = item.group(1) if item else stripped
    if item and content:
        out.append(SkillElement(kind="item", text=_clean(content), file=rel, line=number))
    marked = _marked(content)
    if marked is not None:
        out.append(SkillElement(kind=marked, text=content, file=rel, line=number))
    described = _DESCRIBED.match(content) if item else None
    for span in _SPAN.findall(stripped):
        if _FILE_SPAN.match(span):
            detail = ""
            if described and described.group(1) == span:
                detail = _clean(described.group(2))
            out.append(SkillElement(kind="file", text=span, file=rel, line=number, detail=detail))
    return out


def _marked(content: str) -> str | None:
    """`do`, `dont` or None for one line's content (a ✅ / ❌ mark or a bold do / don't)."""
    if content.startswith("❌"):
        return "dont"
    if content.startswith("✅"):
        return "do"
    if not content.startswith("**"):
        return None
    if DONT_MARK.search(content):
        return "dont"
    if DO_MARK.search(content):
        return "do"
    return None


def _table(rows: list[tuple[int, list[str]]], rel: str) -> list[SkillElement]:
    """Cells of a table's do / don't columns (the header row names them)."""
    header = rows[0][1]
    kinds = {
        i: "do" if DO_COLUMN.search(cell) else "dont"
        for i, cell in enumerate(header)
        if DO_COLUMN.search(cell) or DONT_COLUMN.search(cell)
    }
    out: list[SkillElement] = []
    if not kinds:
        return out
    for number, cells in rows[1:]:
        if all(set(c) <= set(":- ") for c in cells):  # the separator row
            continue
        for i, kind in kinds.items():
            if i < len(cells) and cells[i]:
                out.append(SkillElement(kind=kind, text=cells[i], file=rel, line=number))
    return out


def _clean(text: str) -> str:
    return " ".join(_MARKUP.sub("", text).split())


# --- scripts --------------------------------------------------------------------------------


def script_elements(text: str, rel: str, suffix: str = ".py") -> list[SkillElement]:
    """A script's name, usage lines and options, read from its text (never run)."""
    doc, doc_line = _docstring(text) if suffix == ".py" else ("", 1)
    summary = doc.strip().splitlines()[0].strip() if doc.strip() else ""
    out = [SkillElement(kind="script", text=rel, file=rel, detail=summary)]
    out += _usage(doc or text, rel, doc_line if doc else 1)
    if suffix == ".py":
        out += _arguments(text, rel)
    return out


def _docstring(text: str | None) -> tuple[str, int]:
    """A Python module's docstring and the line it starts on ("" when none or unparsable)."""
    try:
        tree = ast.parse(text or "")
    except (SyntaxError, ValueError):
        return "", 1
    first = tree.body[0] if tree.body else None
    if (
        isinstance(first, ast.Expr)
        and isinstance(first.value, ast.Constant)
        and isinstance(first.value.value, str)
    ):
        return first.value.value, first.lineno
    return "", 1


def _usage(text: str, rel: str, first_line: int) -> list[SkillElement]:
    """The lines under a `Usage:` line (up to a blank line), and the rest of that line."""
    out: list[SkillElement] = []
    lines = text.splitlines()
    for index, line in enumerate(lines):
        bare = line.strip().lstrip("#").strip()
        if not bare.lower().startswith("usage"):
            continue
        rest = bare[len("usage") :].lstrip(":").strip()
        if rest:
            out.append(SkillElement(kind="usage", text=rest, file=rel, line=first_line + index))
        for offset, following in enumerate(lines[index + 1 :], index + 1):
            cleaned = following.strip().lstrip("#").strip()
            if not cleaned:
                break
            out.append(SkillElement(kind="usage", text=cleaned, file=rel, line=first_line + offset))
        break
    return out


def _arguments(text: str, rel: str) -> list[SkillElement]:
    """`add_argument("--port", help=...)` calls: the option strings and their help."""
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError):
        return []
    out: list[SkillElement] = []
    for node in ast.walk(tree):
        if not (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr == "add_argument"
        ):
            continue
        names = [a.value for a in node.args if isinstance(a, ast.Constant)]
        names = [n for n in names if isinstance(n, str)]
        if not names:
            continue
        helps = [
            k.value.value
            for k in node.keywords
            if k.arg == "help" and isinstance(k.value, ast.Constant)
        ]
        out.append(
            SkillElement(
                kind="argument",
                text="/".join(names),
                file=rel,
                line=node.lineno,
                detail=str(helps[0]) if helps else "",
            )
        )
    return sorted(out, key=lambda e: e.line)


__all__ = ["markdown_elements", "script_elements", "skill_contents"]
