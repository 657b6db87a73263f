"""What a Mantle tool does to memory, and which memory feeds its arguments.

Planning needs to know that `block_card` sets `card_replace.card_blocked` (a `requires`
condition), that `place_replacement_order` sets `card_replace.order_id` (`complete_when`),
and that `verify_identity` sets `project.authenticated`. Tools state this only in code
(`context.memory.set("card_blocked", True)`), so the tool file is read with `ast` (never
imported) and every `*.memory.set("<key>", <value>)` call inside a `@tool` function is
collected. A key without a namespace belongs to the calling skill; `project.x` is project
memory. The value is kept when it is a literal, else it is `UNKNOWN`. The reading itself lives
with the skill model (`evalcore.definitions.skill_model`); this module keeps the planner's names.
"""

from __future__ import annotations

from evalcore.definitions import MantleDefinitions, MemoryField, Project, Step, ToolDef
from evalcore.definitions._memo import memo_of
from evalcore.definitions.skill_model import UNKNOWN, Write, code_facts, qualify, tool_keys
from evalcore.definitions.skill_model._tools import parameter_fields as skill_parameter_fields


def tool_writes(project: Project, tool: ToolDef) -> tuple[Write, ...]:
    """The memory writes of one tool's function (empty for MCP tools or unreadable files)."""
    return code_facts(project, tool).writes


def parameter_fields(
    defs: MantleDefinitions, skill_id: str, tool: ToolDef
) -> dict[str, MemoryField]:
    """Which skill memory field an argument of a prose-called tool is filled from.

    The LLM passes "the selected card, the shipping method and the reason"; casegen matches
    each parameter to the field whose name contains the parameter name (`shipping` ->
    `shipping_method`), or whose enum values include all the parameter's `Literal` choices.
    Only unambiguous matches are kept; an argument no skill field fills is filled from the
    project field of its very name (`account_number`). Kept per loaded definitions, skill
    and tool object (a walk asks for every prose-called tool it runs); each caller gets its
    own dict.
    """
    key = ("parameter_fields", skill_id, id(tool))
    kept = memo_of(defs).get(key)
    if kept is None or kept[0] is not tool:  # the tool held with its fields: no id reuse
        fields = skill_parameter_fields(defs.skills[skill_id], tool, defs.memory_names())
        kept = memo_of(defs)[key] = (tool, fields)
    return dict(kept[1])


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
