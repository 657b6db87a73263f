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

from dataclasses import dataclass
from typing import Any

from evalcore.definitions import MantleDefinitions, MemoryField, Project, Step, ToolDef, memo_of
from evalcore.definitions.conditions import condition_keys, evaluate
from evalcore.definitions.skill_model import (
    UNKNOWN,
    Write,
    code_facts,
    paragraphs,
    qualify,
    tool_keys,
)
from evalcore.definitions.skill_model import parameter_fields as skill_parameter_fields


def tool_writes(project: Project, tool: ToolDef) -> tuple[Write, ...]:
    """The memory writes of one tool's function (empty for MCP tools or unreadable files)."""
    return code_facts(project, tool).writes


@dataclass(frozen=True)
class Outcome:
    """A tool's error result the skill handles as one of its branches: the error branch of
    the code writes literals (`claim_status` "5") that an `if:` paragraph of the prose reads
    (`if: claim_status == "5"` "Say you could not find that claim number ..."). Such a
    result is a defined outcome, not a failure: the case follows that paragraph."""

    writes: dict[str, Any]
    """Qualified key -> the literal the error branch writes."""
    text: str
    """The paragraph the prose gives for it."""
    condition: str
    """Its `if:`."""
    code: str | None
    """The code's name for the result (`claim_not_found`), if it returns one literal."""


def failure_outcome(project: Project, skill_id: str, tool: str) -> Outcome | None:
    """The branch of the skill's prose that `tool`'s error result takes, if any (see
    `Outcome`); None for an error the skill gives no paragraph of its own."""
    defs = project.mantle
    if defs is None or skill_id not in defs.skills:
        return None
    found = defs.tools_for(skill_id).get(tool)
    if found is None:
        return None
    facts = code_facts(project, found)
    writes = {
        qualify(w.key, skill_id, defs): w.value
        for w in facts.writes
        if w.failure and w.value is not UNKNOWN
    }
    if not writes:
        return None
    skill = defs.skills[skill_id]
    for paragraph in paragraphs(skill.body or ""):
        keys = set(condition_keys(paragraph.condition)) if paragraph.condition else set()
        if keys and keys <= set(writes) and evaluate(paragraph.condition, writes):
            code = facts.codes[0] if len(facts.codes) == 1 else None
            return Outcome(writes, paragraph.text, str(paragraph.condition), code)
    return None


def outcome_words(tool: str, code: str | None) -> str:
    """The outcome in words: `get_claim_status returns "claim not found"` (the code's name
    for it), else `get_claim_status returns its error result`."""
    if code:
        return f'{tool} returns "{code.replace("_", " ")}"'
    return f"{tool} returns its error result"


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
    "Outcome",
    "Write",
    "failure_outcome",
    "outcome_words",
    "parameter_fields",
    "qualify",
    "step_arguments",
    "tool_keys",
    "tool_writes",
]
