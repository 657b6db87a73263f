"""What a Mantle tool does to memory, and which memory feeds its arguments.

Planning needs to know that `block_card` sets `card_replace.card_blocked` (a `requires`
condition), that `place_replacement_order` sets `card_replace.order_id` (`complete_when`),
and that `verify_identity` sets `project.authenticated`. Tools state this only in code
(`context.memory.set("card_blocked", True)`), so the tool file is read with `ast` (never
imported) and every `*.memory.set("<key>", <value>)` call inside a `@tool` function is
collected. A key without a namespace belongs to the calling skill; `project.x` is project
memory. The value is kept when it is a literal, else it is `UNKNOWN`.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from evalcore.definitions import MantleDefinitions, MemoryField, Project, Step, ToolDef


class _Unknown:
    """A value only the running tool knows (an id, a label, a computed flag)."""

    def __repr__(self) -> str:
        return "UNKNOWN"


UNKNOWN: Any = _Unknown()


@dataclass(frozen=True)
class Write:
    key: str
    """Unqualified as written (`card_blocked`) or `project.<key>`."""
    value: Any = UNKNOWN


def qualify(key: str, skill_id: str) -> str:
    return key if key.startswith(("project.", "system.")) else f"{skill_id}.{key}"


@lru_cache(maxsize=64)
def _file_writes(text: str) -> dict[str, tuple[Write, ...]]:
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return {}  # the definitions reader has already warned about this file
    out: dict[str, tuple[Write, ...]] = {}
    for node in ast.walk(tree):
        if not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            continue
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
        out[node.name] = tuple(dict.fromkeys(writes))
    return out


def _is_memory(node: ast.expr) -> bool:
    return isinstance(node, ast.Attribute) and node.attr == "memory"


def tool_writes(project: Project, tool: ToolDef) -> tuple[Write, ...]:
    """The memory writes of one tool's function (empty for MCP tools or unreadable files)."""
    if tool.source is None:
        return ()
    path = Path(tool.source.file)
    if not path.is_absolute():
        path = project.root / path
    try:
        text = path.read_text(encoding="utf-8")
    except OSError:
        return ()
    return _file_writes(text).get(tool.name, ())


def tool_keys(project: Project, tool: ToolDef, skill_id: str) -> dict[str, Any]:
    """Qualified key -> written value (or UNKNOWN) for a tool called on behalf of a skill."""
    return {qualify(w.key, skill_id): w.value for w in tool_writes(project, tool)}


def parameter_fields(
    defs: MantleDefinitions, skill_id: str, tool: ToolDef
) -> dict[str, MemoryField]:
    """Which skill memory field an argument of a prose-called tool is filled from.

    The LLM passes "the selected card, the shipping method and the reason"; casegen matches
    each parameter to the field whose name contains the parameter name (`shipping` ->
    `shipping_method`), or whose enum values include all the parameter's `Literal` choices.
    Only unambiguous matches are kept.
    """
    skill = defs.skills[skill_id]
    out: dict[str, MemoryField] = {}
    for param in tool.parameters:
        if "ToolContext" in (param.type or ""):
            continue
        matches = [
            f
            for f in skill.memory.values()
            if f.name == param.name
            or param.name in f.name.split("_")
            or f.name.endswith("_" + param.name)
            or (param.choices and f.enum_values and set(param.choices) <= set(f.enum_values))
        ]
        if len(matches) == 1:
            out[param.name] = matches[0]
    return out


def step_arguments(step: Step) -> dict[str, str]:
    """`execute_tool` parameters that read memory: argument -> qualified memory name."""
    params = step.fields.get("parameters")
    if not isinstance(params, dict):
        return {}
    out = {}
    for name, source in params.items():
        if isinstance(source, str) and source.startswith("session."):
            out[str(name)] = source.removeprefix("session.")
    return out


__all__ = [
    "UNKNOWN",
    "Write",
    "parameter_fields",
    "qualify",
    "step_arguments",
    "tool_keys",
    "tool_writes",
]
