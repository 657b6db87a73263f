"""What a tool's code does, read with `ast` (never imported): memory writes and error results.

Tools state their memory writes only in code (`context.memory.set("card_blocked", True)`), so
every `*.memory.set("<key>", <value>)` call inside the tool's function is collected. A key
without a namespace belongs to the calling skill; `project.x` is project memory. The value is
kept when it is a literal. A tool's documented error results are `raise` statements, results
with an `error` key or `is_error=True`, and a docstring `Returns:`/`Raises:` line naming an
error or failure.
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from .._memo import memoized
from .._model import Project, ToolDef


class _Unknown:
    """A value only the running tool knows (an id, a label, a computed flag)."""

    def __repr__(self) -> str:
        return "UNKNOWN"


UNKNOWN: Any = _Unknown()

_ERROR_DOC = re.compile(r"\b(error|errors|fail|fails|failure|not\s+found|invalid|raises?)\b", re.I)


@dataclass(frozen=True)
class Write:
    key: str
    """Unqualified as written (`card_blocked`) or `project.<key>`."""
    value: Any = UNKNOWN


@dataclass(frozen=True)
class CodeFacts:
    writes: tuple[Write, ...] = ()
    errors: tuple[str, ...] = ()
    """Short descriptions of documented error results."""


def qualify(key: str, skill_id: str) -> str:
    return key if key.startswith(("project.", "system.")) else f"{skill_id}.{key}"


def _is_memory(node: ast.expr) -> bool:
    return isinstance(node, ast.Attribute) and node.attr == "memory"


def _writes(node: ast.AST) -> tuple[Write, ...]:
    writes: list[Write] = []
    for call in ast.walk(node):
        if not (isinstance(call, ast.Call) and isinstance(call.func, ast.Attribute)):
            continue
        target = call.func
        if target.attr != "set" or not _is_memory(target.value) or not call.args:
            continue
        key = call.args[0]
        if not (isinstance(key, ast.Constant) and isinstance(key.value, str)):
            continue
        value: Any = UNKNOWN
        if len(call.args) > 1 and isinstance(call.args[1], ast.Constant):
            value = call.args[1].value
        writes.append(Write(key.value, value))
    return tuple(dict.fromkeys(writes))


def _errors(node: ast.FunctionDef | ast.AsyncFunctionDef) -> tuple[str, ...]:
    found: list[str] = []
    for sub in ast.walk(node):
        if isinstance(sub, ast.Raise) and sub.exc is not None:
            found.append("raises " + ast.unparse(sub.exc).split("(")[0])
        elif isinstance(sub, ast.keyword) and sub.arg == "is_error":
            if isinstance(sub.value, ast.Constant) and sub.value.value is True:
                found.append("returns is_error=True")
        elif isinstance(sub, ast.Dict):
            keys = [k.value for k in sub.keys if isinstance(k, ast.Constant)]
            if "error" in keys:
                found.append("returns an 'error' result")
    doc = ast.get_docstring(node) or ""
    section = False
    for line in doc.splitlines():
        stripped = line.strip()
        if re.match(r"^(Returns?|Raises)\s*:", stripped):
            section = True
            rest = stripped.split(":", 1)[1].strip()
            if rest and _ERROR_DOC.search(rest):
                found.append(rest)
            continue
        if section and stripped and _ERROR_DOC.search(stripped):
            found.append(stripped)
        if section and not stripped:
            section = False
    return tuple(dict.fromkeys(found))


@lru_cache(maxsize=128)
def _file_facts(text: str) -> dict[str, CodeFacts]:
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return {}
    out: dict[str, CodeFacts] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            out[node.name] = CodeFacts(_writes(node), _errors(node))
    return out


def code_facts(project: Project, tool: ToolDef) -> CodeFacts:
    """Writes and error results of one tool's function (empty for MCP or unreadable files).

    Kept per loaded project and tool: a walk asks for every tool it runs."""
    if tool.source is None:
        return CodeFacts()
    key = ("code_facts", tool.source.file, tool.name)
    return memoized(project, key, lambda: _code_facts(project, tool))


def _code_facts(project: Project, tool: ToolDef) -> CodeFacts:
    assert tool.source is not None
    path = Path(tool.source.file)
    if not path.is_absolute():
        path = project.root / path
    text = memoized(project, ("tool_source", str(path)), lambda: _read(path))
    if text is None:
        return CodeFacts()
    return _file_facts(text).get(tool.name, CodeFacts())


def _read(path: Path) -> str | None:
    """A tool file's text, read once per loaded project (planning asks per tool call)."""
    try:
        return path.read_text(encoding="utf-8")
    except OSError:
        return None


def tool_keys(project: Project, tool: ToolDef, skill_id: str) -> dict[str, Any]:
    """Qualified key -> written value (or UNKNOWN) for a tool called on behalf of a skill."""
    return {qualify(w.key, skill_id): w.value for w in code_facts(project, tool).writes}


__all__ = ["UNKNOWN", "CodeFacts", "Write", "code_facts", "qualify", "tool_keys"]
