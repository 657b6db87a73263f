"""`@tool` functions read from Python source with `ast` — user code is never imported or run.

A tool is a module-level function with a decorator named `tool` (`@tool`, `@tool(...)`,
`@decorator.tool(...)`). Its name is the function name (or a literal `name=`), its description
the literal `description=` (else the docstring's first paragraph), and its parameters come from
the signature: annotation as source text, `Literal[...]` choices, literal defaults, and
descriptions from a Google-style `Args:` docstring section. The `context` / `ToolContext`
parameter is the framework's and is skipped.
"""

from __future__ import annotations

import ast
import re
import sys
from functools import lru_cache
from pathlib import Path
from typing import Any, Literal

from .. import _valuecache
from .._sha256 import sha256
from .._valuecache import text_key
from ..lexicon.notation.python_source import DOCSTRING_SECTION
from ._context import ReadContext
from ._model import ToolDef, ToolParameter

_SKIPPED_PARAMS = {"self", "cls", "context"}


@lru_cache(maxsize=1)
def _docstring_patterns() -> tuple[re.Pattern[str], re.Pattern[str]]:
    """A docstring's section heading (the lexicon's) and `Args:` entry patterns, the entry
    one compiled when a tool file is read (not at import: tool definitions usually come from
    the cache)."""
    arg_line = re.compile(
        r"^(?P<indent>\s*)\*{0,2}(?P<name>\w+)\s*(\([^)]*\))?\s*:\s*(?P<desc>.*)$"
    )
    return DOCSTRING_SECTION, arg_line


@lru_cache(maxsize=256)
def parsed_module(text: str) -> ast.Module:
    """`text` parsed, once per text: the loader reads a tool file's definitions and the skill
    model its code facts from the same tree (read only, never changed). Raises what
    `ast.parse` raises; an error is not kept."""
    return ast.parse(text)


def read_tool_file(
    ctx: ReadContext, path: Path, scope: Literal["local", "shared"]
) -> list[ToolDef]:
    """The tools defined in `path`; a file that does not parse yields a warning and none."""
    text = ctx.read_text(path)
    if text is None:
        return []
    kind, facts = tool_facts(text)
    if kind == "warn":
        line, message = facts
        ctx.warn(path, line, message)
        return []
    return [
        ToolDef(
            name=name,
            description=description,
            parameters=[
                ToolParameter(
                    name=p_name,
                    type=p_type,
                    required=required,
                    default=default,
                    description=p_description,
                    choices=choices,
                )
                for p_name, p_type, required, default, p_description, choices in parameters
            ],
            scope=scope,
            source=ctx.ref(path, line),
        )
        for name, description, line, parameters in facts
    ]


def tool_facts(text: str) -> tuple[str, Any]:
    """What a tool file's `text` defines, as plain values: `("tools", [(name, description,
    line, [(name, type, required, default, description, choices), ...]), ...])`, or
    `("warn", (line, message))` when it does not parse. Depends on the text alone, so it is
    kept between processes (`evalcore._valuecache.VALUES`, keyed by this module's source
    and the text): a light command does not parse every tool file again."""
    version = _version()
    if version is None:  # this module's source is not readable: nothing to key on
        return _tool_facts(text)
    key = text_key("tools", version, text)
    kept = _valuecache.VALUES.get(key)  # looked up per call: tests swap the cache
    if kept is None:
        kept = _tool_facts(text)
        _valuecache.VALUES.put(key, kept)
    return kept


@lru_cache(maxsize=1)
def _version() -> str | None:
    """This module's source and the interpreter: what `_tool_facts` depends on besides the
    text (an edited reader or another `ast.unparse` never finds the old facts); None when
    the source cannot be read (a zipped install)."""
    try:
        source = Path(__file__).read_bytes()
    except OSError:
        return None
    return sha256(source + sys.version.encode()).hexdigest()


def _tool_facts(text: str) -> tuple[str, Any]:
    try:
        module = parsed_module(text)
    except SyntaxError as exc:
        return "warn", (exc.lineno, f"Python syntax error: {exc.msg}; its tools are not read")
    except ValueError as exc:  # e.g. null bytes in the source
        return "warn", (None, f"cannot parse Python source: {exc}")
    except (RecursionError, MemoryError):  # e.g. a 100,000-term expression
        return "warn", (None, "Python source is nested too deeply to parse; its tools are not read")
    tools = []
    for node in module.body:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            decorator = _tool_decorator(node)
            if decorator is not None:
                tools.append(_tool_def(node, decorator))
    return "tools", tools


def _decorator_name(node: ast.expr) -> str | None:
    target = node.func if isinstance(node, ast.Call) else node
    if isinstance(target, ast.Name):
        return target.id
    if isinstance(target, ast.Attribute):
        return target.attr
    return None


def _tool_decorator(func: ast.FunctionDef | ast.AsyncFunctionDef) -> ast.expr | None:
    return next((d for d in func.decorator_list if _decorator_name(d) == "tool"), None)


def _literal(node: ast.expr | None) -> tuple[bool, Any]:
    """`(True, value)` when `node` is a literal, else `(False, None)`."""
    if node is None:
        return False, None
    try:
        return True, ast.literal_eval(node)
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
        return False, None


def _keyword(decorator: ast.expr, name: str) -> Any:
    if not isinstance(decorator, ast.Call):
        return None
    node = next((k.value for k in decorator.keywords if k.arg == name), None)
    ok, value = _literal(node)
    return value if ok else None


def _tool_def(func: ast.FunctionDef | ast.AsyncFunctionDef, decorator: ast.expr) -> tuple[Any, ...]:
    docstring = ast.get_docstring(func) or ""
    name = _keyword(decorator, "name")
    description = _keyword(decorator, "description")
    if not isinstance(description, str) or not description.strip():
        description = _summary(docstring)
    return (
        name if isinstance(name, str) and name else func.name,
        description,
        func.lineno,
        _parameters(func, _arg_docs(docstring)),
    )


def _summary(docstring: str) -> str | None:
    """The docstring's first paragraph, on one line."""
    paragraph = docstring.strip().split("\n\n", 1)[0]
    text = " ".join(line.strip() for line in paragraph.splitlines()).strip()
    return text or None


def _arg_docs(docstring: str) -> dict[str, str]:
    """Descriptions from a Google-style `Args:` section (continuation lines joined)."""
    docs: dict[str, str] = {}
    in_args = False
    entry_indent: int | None = None
    current: str | None = None
    section_heading, arg_line = _docstring_patterns()
    for line in docstring.splitlines():
        section = section_heading.match(line)
        if section:
            in_args = section.group(1) in {"Args", "Arguments", "Parameters", "Params"}
            entry_indent, current = None, None
            continue
        if not in_args or not line.strip():
            continue
        indent = len(line) - len(line.lstrip())
        match = arg_line.match(line)
        if match and (entry_indent is None or indent <= entry_indent):
            entry_indent, current = indent, match["name"]
            docs[current] = match["desc"].strip()
        elif current is not None and entry_indent is not None and indent > entry_indent:
            docs[current] = f"{docs[current]} {line.strip()}".strip()
        else:
            in_args = False
    return {k: v for k, v in docs.items() if v}


def _is_context(arg: ast.arg) -> bool:
    if arg.arg in _SKIPPED_PARAMS:
        return True
    return arg.annotation is not None and "ToolContext" in ast.unparse(arg.annotation)


def _parameters(
    func: ast.FunctionDef | ast.AsyncFunctionDef, docs: dict[str, str]
) -> list[tuple[Any, ...]]:
    args = func.args
    positional = [*args.posonlyargs, *args.args]
    defaults: list[ast.expr | None] = [None] * (len(positional) - len(args.defaults))
    defaults += list(args.defaults)
    pairs = [
        *zip(positional, defaults, strict=True),
        *zip(args.kwonlyargs, args.kw_defaults, strict=True),
    ]
    return [
        (
            arg.arg,
            ast.unparse(arg.annotation) if arg.annotation is not None else None,
            default is None,
            _default(default),
            docs.get(arg.arg),
            _literal_choices(arg.annotation),
        )
        for arg, default in pairs
        if not _is_context(arg)
    ]


def _default(node: ast.expr | None) -> Any:
    """A literal default as its value; any other expression as its source text."""
    if node is None:
        return None
    ok, value = _literal(node)
    return value if ok else ast.unparse(node)


def _literal_choices(annotation: ast.expr | None) -> list[Any] | None:
    """Values of the first `Literal[...]` in the annotation (also inside Optional/unions)."""
    if annotation is None:
        return None
    for node in ast.walk(annotation):
        if isinstance(node, ast.Subscript) and _subscript_name(node.value) == "Literal":
            items = node.slice.elts if isinstance(node.slice, ast.Tuple) else [node.slice]
            values = [_literal(item) for item in items]
            return [value for ok, value in values if ok]
    return None


def _subscript_name(node: ast.expr) -> str | None:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return node.attr
    return None
