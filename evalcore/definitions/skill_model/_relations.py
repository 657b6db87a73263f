"""Record keys a skill's tools compare between two records, read with `ast` (never imported).

A permission check relates the caller's record to the target's: `person["team"] ==
entry["team"]` lets an engineer change a service of their own team. The prose says it as
"check that the engineer owns the service", and a case whose path needs the check to pass
has to draw a caller and a target that agree on that key; a caller of one team asking to
change another team's service is turned away, whatever else the case asserts. So every
comparison (`==`, `!=`, `in`) of the same key read off two different records in the code
of a tool the skill can call (`a["team"]`, `b.get("team")`) names such a key.

A check may let a flag of the caller's record stand in for the relation: `person["sre"] or
person["team"] == entry["team"]` lets an SRE change any service. `relation_waivers` names
such flags per key, so a caller whose flag holds is not tied to a target of their own team
(an SRE's team owns no service).
"""

from __future__ import annotations

import ast
from collections.abc import Iterable

from .._memo import memoized
from .._model import Project
from .._tools_ast import parsed_module
from ._code import record_field, tool_source


def related_keys(
    project: Project, skill_id: str, called: Iterable[str] | None = None
) -> frozenset[str]:
    """Record keys the tools `skill_id` can call (those of them in `called`, where given:
    a path's tools) compare between two records (see the module); empty for tools that
    compare none. Kept per loaded project."""
    wanted = None if called is None else tuple(sorted(set(called)))
    key = ("related_keys", skill_id, wanted)
    return memoized(project, key, lambda: _related(project, skill_id, wanted))


def _related(project: Project, skill_id: str, called: tuple[str, ...] | None) -> frozenset[str]:
    defs = project.mantle
    if defs is None or skill_id not in defs.skills:
        return frozenset()
    out: set[str] = set()
    for tool in defs.tools_for(skill_id).values():
        if called is not None and tool.name not in called:
            continue
        text = tool_source(project, tool)
        if text is not None:
            out |= _compared_keys(text, tool.name)
    return frozenset(out)


def relation_waivers(
    project: Project, skill_id: str, called: Iterable[str] | None = None
) -> dict[str, frozenset[str]]:
    """Related key -> the record flags a check of the tools `skill_id` can call (those in
    `called`, where given) accepts instead of the relation (see the module). Kept per loaded
    project."""
    wanted = None if called is None else tuple(sorted(set(called)))
    key = ("relation_waivers", skill_id, wanted)
    return memoized(project, key, lambda: _waivers(project, skill_id, wanted))


def _waivers(
    project: Project, skill_id: str, called: tuple[str, ...] | None
) -> dict[str, frozenset[str]]:
    defs = project.mantle
    if defs is None or skill_id not in defs.skills:
        return {}
    out: dict[str, set[str]] = {}
    for tool in defs.tools_for(skill_id).values():
        if called is not None and tool.name not in called:
            continue
        text = tool_source(project, tool)
        for key, flags in (_waived_keys(text, tool.name) if text is not None else {}).items():
            out.setdefault(key, set()).update(flags)
    return {k: frozenset(v) for k, v in out.items()}


def _waived_keys(text: str, name: str) -> dict[str, set[str]]:
    """Compared key -> the bare record flags or-ed with its comparison in function `name`."""
    try:
        tree = parsed_module(text)
    except (SyntaxError, ValueError):
        return {}
    out: dict[str, set[str]] = {}
    for func in ast.walk(tree):
        if not isinstance(func, ast.FunctionDef | ast.AsyncFunctionDef) or func.name != name:
            continue
        for node in ast.walk(func):
            if not isinstance(node, ast.BoolOp) or not isinstance(node.op, ast.Or):
                continue
            flags = {k for v in node.values if (k := record_field(v)) is not None}
            for value in node.values:
                if isinstance(value, ast.Compare) and len(value.ops) == 1:
                    key = record_field(value.left)
                    if key is not None and key == record_field(value.comparators[0]):
                        out.setdefault(key, set()).update(flags - {key})
    return out


def _compared_keys(text: str, name: str) -> frozenset[str]:
    """The keys the function `name` of the module `text` compares between two records."""
    try:
        tree = parsed_module(text)
    except (SyntaxError, ValueError):
        return frozenset()
    out: set[str] = set()
    for func in ast.walk(tree):
        if not isinstance(func, ast.FunctionDef | ast.AsyncFunctionDef) or func.name != name:
            continue
        for node in ast.walk(func):
            if not isinstance(node, ast.Compare) or len(node.ops) != 1:
                continue
            if not isinstance(node.ops[0], ast.Eq | ast.NotEq | ast.In | ast.NotIn):
                continue
            left, right = node.left, node.comparators[0]
            key = record_field(left)
            if key is None or record_field(right) != key:
                continue
            if _record_of(left) != _record_of(right):  # two records, not one read twice
                out.add(key)
    return frozenset(out)


def _record_of(node: ast.expr) -> str:
    """The expression a key is read off (`person` of `person["team"]`)."""
    while isinstance(node, ast.Call) and len(node.args) == 1 and isinstance(node.func, ast.Name):
        node = node.args[0]
    if isinstance(node, ast.Subscript):
        return ast.unparse(node.value)
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
        return ast.unparse(node.func.value)
    return ""


__all__ = ["related_keys", "relation_waivers"]
