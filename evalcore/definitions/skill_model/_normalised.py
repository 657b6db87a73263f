"""Which parameters a tool's code normalises itself, read with `ast` (never imported).

A tool that folds its input (`country.strip().lower()`), maps it through a table of other
names for it (`_ALIASES.get(country, country)`) or hands it to a helper of its file that does
(`_normalize_country(country or "")`) takes "UK", "uk" and " uk " alike: every correct
agent may pass any of them, so a case must not assert one spelling with
`tool_executed.arguments` (which compares by equality); what the tool then keeps (its
`memory.set` of the normalised value) is the stable fact. A parameter the code uses as it
comes (an id looked up in a record, a code passed on, a key of a plain table such as
`DELIVERY_DAYS[shipping]`) is not normalised: only the table's own spelling works there.
"""

from __future__ import annotations

import ast

from .._memo import memoized
from .._model import Project, ToolDef
from .._tools_ast import parsed_module
from ._code import tool_source

#: String methods that fold a value's spelling or padding.
_FOLDING = frozenset(
    {"lower", "upper", "casefold", "strip", "lstrip", "rstrip", "title", "capitalize"}
)
#: Parameters the framework fills, never an argument the agent passes.
_FRAMEWORK = frozenset({"self", "cls", "context"})
#: How many helper calls deep a parameter is followed.
_DEPTH = 3

_Function = ast.FunctionDef | ast.AsyncFunctionDef


def normalised_parameters(project: Project, tool: ToolDef) -> frozenset[str]:
    """The parameters of `tool` its code folds, maps through a table of aliases or hands to
    a helper of its file that does (empty for an MCP tool or an unreadable file)."""
    text = tool_source(project, tool)
    if text is None:
        return frozenset()
    return memoized(project, ("normalised", text, tool.name), lambda: _normalised(text, tool.name))


def _normalised(text: str, name: str) -> frozenset[str]:
    try:
        module = parsed_module(text)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return frozenset()
    functions = {n.name: n for n in module.body if isinstance(n, _Function)}
    tables = _tables(module)
    node = functions.get(name) or _decorated(module, name)
    if node is None:
        return frozenset()
    params = [
        a.arg
        for a in (*node.args.posonlyargs, *node.args.args, *node.args.kwonlyargs)
        if a.arg not in _FRAMEWORK and "ToolContext" not in _annotation(a)
    ]
    return frozenset(p for p in params if _folds(node, p, functions, tables, _DEPTH))


def _annotation(arg: ast.arg) -> str:
    return ast.unparse(arg.annotation) if arg.annotation is not None else ""


def _decorated(module: ast.Module, name: str) -> _Function | None:
    """The function a `@tool(name="...")` decorator names `name`."""
    for node in module.body:
        if not isinstance(node, _Function):
            continue
        for decorator in node.decorator_list:
            for keyword in getattr(decorator, "keywords", []):
                value = keyword.value
                if (
                    keyword.arg == "name"
                    and isinstance(value, ast.Constant)
                    and value.value == name
                ):
                    return node
    return None


def _tables(module: ast.Module) -> frozenset[str]:
    """Module-level names bound to a dict literal or a `dict(...)` call: tables."""
    out: set[str] = set()
    for node in module.body:
        value = node.value if isinstance(node, ast.Assign | ast.AnnAssign) else None
        targets = node.targets if isinstance(node, ast.Assign) else [getattr(node, "target", None)]
        literal = isinstance(value, ast.Dict | ast.DictComp)
        called = isinstance(value, ast.Call) and getattr(value.func, "id", None) == "dict"
        if literal or called:
            out |= {t.id for t in targets if isinstance(t, ast.Name)}
    return frozenset(out)


def _reads(node: ast.AST | None, name: str) -> bool:
    return node is not None and any(
        isinstance(n, ast.Name) and n.id == name for n in ast.walk(node)
    )


def _folds(
    function: _Function,
    param: str,
    functions: dict[str, _Function],
    tables: frozenset[str],
    depth: int,
) -> bool:
    """Whether `function`'s code folds `param`, maps it through a table of aliases, or
    passes it to a helper of the file that does (`depth` helpers deep)."""
    for node in ast.walk(function):
        if not isinstance(node, ast.Call):
            continue
        func = node.func
        if isinstance(func, ast.Attribute):
            if func.attr in _FOLDING and _reads(func.value, param):
                return True
            if _aliased(node, tables, param):
                return True
        elif isinstance(func, ast.Name) and depth > 0 and func.id in functions:
            helper = functions[func.id]
            if helper is not function and _helper_folds(
                node, helper, param, functions, tables, depth
            ):
                return True
    return False


def _aliased(call: ast.Call, tables: frozenset[str], param: str) -> bool:
    """`ALIASES.get(x, x)`: a table of other names for a value, the value itself where it
    has none. A plain lookup (`DAYS[x]`, `FEES.get(x, 0)`) takes only the table's own
    spelling: the value is used as it comes."""
    func = call.func
    if not (isinstance(func, ast.Attribute) and func.attr == "get" and len(call.args) == 2):
        return False
    table = func.value
    if not (isinstance(table, ast.Name) and table.id in tables):
        return False
    key, default = call.args
    return _reads(key, param) and ast.dump(key) == ast.dump(default)


def _helper_folds(
    call: ast.Call,
    helper: _Function,
    param: str,
    functions: dict[str, _Function],
    tables: frozenset[str],
    depth: int,
) -> bool:
    """Whether `call` hands `param` to a parameter of `helper` that `helper` folds."""
    names = [a.arg for a in (*helper.args.posonlyargs, *helper.args.args)]
    handed = [names[i] for i, arg in enumerate(call.args) if i < len(names) and _reads(arg, param)]
    handed += [k.arg for k in call.keywords if k.arg and _reads(k.value, param)]
    return any(_folds(helper, h, functions, tables, depth - 1) for h in handed)


__all__ = ["normalised_parameters"]
