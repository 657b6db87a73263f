"""Memory a tool writes as a sum over data rows (`balance_due` is the sum of the resident's
ledger `amount`s), read with `ast` (never imported).

`rows = [r for r in ledger if r["resident_id"] == resident_id]; balance = round(sum(r["amount"]
for r in rows), 2); context.memory.set("balance_due", balance)` gives `balance_due ->
amount`: a case about splitting the balance needs a caller whose rows sum to something.
"""

from __future__ import annotations

import ast

from .._memo import memoized
from .._model import Project, ToolDef
from ._code import tool_source


def _summed_key(node: ast.AST) -> str | None:
    """The record key `sum(r["amount"] for r in rows)` adds up, anywhere in `node`."""
    for call in ast.walk(node):
        if not (
            isinstance(call, ast.Call)
            and isinstance(call.func, ast.Name)
            and call.func.id == "sum"
            and call.args
            and isinstance(call.args[0], ast.GeneratorExp | ast.ListComp)
        ):
            continue
        element = call.args[0].elt
        index = element.slice if isinstance(element, ast.Subscript) else None
        if isinstance(index, ast.Constant) and isinstance(index.value, str):
            return index.value
    return None


def _memory_set(node: ast.AST) -> tuple[str, ast.expr] | None:
    """(key, value) of a `*.memory.set("<key>", <value>)` call."""
    if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)):
        return None
    target = node.func
    inner = target.value
    memory = isinstance(inner, ast.Attribute) and inner.attr == "memory"
    memory = memory or (isinstance(inner, ast.Name) and inner.id == "memory")
    if target.attr != "set" or not memory or len(node.args) < 2:
        return None
    key = node.args[0]
    if not (isinstance(key, ast.Constant) and isinstance(key.value, str)):
        return None
    return key.value.removeprefix("project."), node.args[1]


def _function_sums(function: ast.AST) -> dict[str, str]:
    sums: dict[str, str] = {}  # variable -> summed key
    for node in ast.walk(function):
        if isinstance(node, ast.Assign) and len(node.targets) == 1:
            target = node.targets[0]
            key = _summed_key(node.value)
            if isinstance(target, ast.Name) and key is not None:
                sums[target.id] = key
    out: dict[str, str] = {}
    for node in ast.walk(function):
        found = _memory_set(node)
        if found is None:
            continue
        name, value = found
        key = _summed_key(value)
        if key is None and isinstance(value, ast.Name):
            key = sums.get(value.id)
        if key is not None:
            out[name] = key
    return out


def summed_writes(project: Project, tool: ToolDef) -> dict[str, str]:
    """Memory key (unqualified) -> the record key the tool's code sums to write it."""
    text = tool_source(project, tool)
    if text is None:
        return {}

    def read() -> dict[str, str]:
        try:
            module = ast.parse(text)
        except SyntaxError:
            return {}
        for node in ast.walk(module):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and node.name == tool.name:
                return _function_sums(node)
        return {}

    return dict(memoized(project, ("summed_writes", text, tool.name), read))


__all__ = ["summed_writes"]
