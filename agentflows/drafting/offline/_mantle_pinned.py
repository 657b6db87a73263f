"""Which arguments of a tool call a case may pin (`tool_executed.arguments`).

An argument is pinned only where the model must pass it: a required parameter of the
tool, or one an `execute_tool` step's `parameters` has the runtime pass. A parameter with a
default is the model's to leave out (`loyalty_tier: str = "none"` that the prose says the
tool reads itself; a pickup store on a delivery): a correct agent that omits it records a
call without it, and a pinned value fails that run.
"""

from __future__ import annotations

from evalcore.definitions import MantleDefinitions, ToolDef, memoized

from ...planning._mantle_tools import step_arguments


def optional_parameters(defs: MantleDefinitions, skill_id: str, tool: ToolDef) -> frozenset[str]:
    """The tool's parameters with a default that no `execute_tool` step of `skill_id` passes:
    the model may leave each out."""
    return memoized(
        defs, ("optional_parameters", skill_id, tool.name), lambda: _optional(defs, skill_id, tool)
    )


def _optional(defs: MantleDefinitions, skill_id: str, tool: ToolDef) -> frozenset[str]:
    passed: set[str] = set()
    skill = defs.skills.get(skill_id)
    for block in skill.blocks.values() if skill is not None else ():
        for step in block.steps:
            if step.kind == "execute_tool" and str(step.target) == tool.name:
                passed |= set(step_arguments(step))
    return frozenset(
        p.name
        for p in tool.parameters
        if not p.required and p.name not in passed and "ToolContext" not in (p.type or "")
    )


__all__ = ["optional_parameters"]
