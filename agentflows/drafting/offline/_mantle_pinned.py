"""Which arguments of a tool call a case may pin (`tool_executed.arguments`).

An argument is pinned only where the case gives its value and the model must pass it:

- A parameter with a default that no `execute_tool` step passes is the model's to leave
  out (`loyalty_tier: str = "none"` that the prose says the tool reads itself; a pickup
  store on a delivery), unless it is filled from a field a `collect` step asked the user
  for on the case's path (an injury the claim's block collects, "call submit_claim with
  the collected fields"), or the sentence that calls the tool passes it ("try
  @tool.find_policyholder with @memory.project.caller_phone"): a correct agent that omits
  it records a call without it.
- A list (`scopes: list[str]`) compares by equality, items, order and type alike: the
  scope the user named is told as a fact, and the list is not pinned.
- A field the walk set without a question it reads (`Script.needed`: "and for how long
  (set duration_hours)", a bag tag a filing `requires`) is told to the user, but how the
  agent comes by it is not fixed, so its value is not pinned.
- An amount the model formats (`loose_parameters`: an optional float, or a whole one) and
  one filled from an entry whose value the model reads into the user's words.

A value the calling sentence sets in so many words ("then call @tool.page_safety_officer
with urgent set to true") is pinned on the path of that sentence whatever the rules above
say (`sentence_pinned`): the prose leaves the model no choice there.

A choice the branch it selects may re-record is not pinned either (`reclassified`): where
the prose scoped to `disruption_type == "delayed"` gives a threshold under which the
change counts as another value of the same field ("180 minutes or more ...; under that, it
counts as voluntary"), a correct agent may write that other value before the call, and
whether the case's record meets the threshold is not read here.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from evalcore.definitions import MantleDefinitions, Project, ToolDef, memoized
from evalcore.definitions.conditions import condition_keys
from evalcore.definitions.skill_model import qualify, sentence_arguments, sentences, skill_model

from ._mantle_facts import holds

_NUMBER = re.compile(r"\d+")


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
                params = step.fields.get("parameters")  # memory or a literal (`hours: 6`)
                passed |= set(params) if isinstance(params, dict) else set()
    return frozenset(
        p.name
        for p in tool.parameters
        if not p.required and p.name not in passed and "ToolContext" not in (p.type or "")
    )


def collected_fields(defs: MantleDefinitions, skill_id: str) -> frozenset[str]:
    """The qualified fields the skill's `collect` steps ask for."""

    def build() -> frozenset[str]:
        skill = defs.skills.get(skill_id)
        return frozenset(
            qualify(str(step.target), skill_id, defs)
            for block in (skill.blocks.values() if skill is not None else ())
            for step in block.steps
            if step.kind == "collect"
        )

    return memoized(defs, ("collected_fields", skill_id), build)


def unpinned_parameters(
    defs: MantleDefinitions,
    skill_id: str,
    tool: ToolDef,
    sources: dict[str, str],
    answered: frozenset[str],
    needed: frozenset[str],
    passed: frozenset[str] = frozenset(),
) -> frozenset[str]:
    """The parameters of `tool` a case does not pin (see the module): `sources` maps each to
    the memory field it is filled from, `answered` holds the fields the user answers a
    question of the case's walks for, `needed` those the walk set without one, `passed`
    those the sentence that calls the tool passes it (`sentence_fields`)."""
    given = (collected_fields(defs, skill_id) & answered) | passed
    optional = {
        p
        for p in optional_parameters(defs, skill_id, tool)
        if sources.get(p) not in given and not _named_after(p, passed)
    }
    listed = {p.name for p in tool.parameters if (p.type or "").lower().startswith("list")}
    return frozenset(optional | listed | {p for p, key in sources.items() if key in needed})


def _named_after(param: str, passed: frozenset[str]) -> bool:
    """Whether a field the call's sentence passes is the parameter's by name (`phone` for
    `project.caller_phone`)."""
    names = (key.rsplit(".", 1)[-1] for key in passed)
    return any(n == param or n.endswith("_" + param) for n in names)


def loose_parameters(
    tool: ToolDef,
    arguments: dict[str, Any],
    sources: dict[str, str],
    skill_id: str,
    unsaid: frozenset[str],
) -> frozenset[str]:
    """Parameters of `tool` a case does not pin: an amount the model formats (a `float`
    that is optional, or whole: 3980 and 3980.0 differ to a type-strict comparison, and an
    optional one may be left out; a stated 99.30 is passed as said), and one filled from an
    entry of `unsaid` (`without_values`)."""
    formatted = {
        p.name
        for p in tool.parameters
        if "float" in (p.type or "") and (not p.required or _whole(arguments.get(p.name)))
    }
    guessed = {
        p.name for p in tool.parameters if (sources.get(p.name) or f"{skill_id}.{p.name}") in unsaid
    }
    return frozenset(formatted | guessed)


def sentence_pinned(
    project: Project, skill_id: str, tool: ToolDef, arguments: dict[str, Any]
) -> frozenset[str]:
    """The parameters of `arguments` whose very value (and type) a sentence of the skill's
    prose that calls `tool` sets ("with urgent set to true")."""
    model = skill_model(project, skill_id)
    use = model.tool(tool.name) if model is not None else None
    said: list[tuple[str, Any]] = [
        item
        for call in (use.calls if use is not None else [])
        if call.sentence
        for item in sentence_arguments(call.sentence, tool).items()
    ]
    return frozenset(
        param
        for param, value in arguments.items()
        if any(p == param and type(v) is type(value) and v == value for p, v in said)
    )


def reclassified(
    defs: MantleDefinitions,
    skill_id: str,
    sources: Mapping[str, str],
    memory: Mapping[str, Any],
) -> frozenset[str]:
    """Parameters filled from a choice the branch it selects may re-record: a sentence of
    the skill's instructions scoped by an `if:` on that field, which the case's `memory`
    meets, gives a number (a threshold) and names another value of the field's choices."""
    skill = defs.skills.get(skill_id)
    if skill is None:
        return frozenset()
    names = defs.memory_names()
    texts = [skill.body or ""] + [
        str(step.target)
        for block in skill.blocks.values()
        for step in block.steps
        if step.kind == "instructions" and isinstance(step.target, str)
    ]
    scoped = [
        part
        for text in texts
        for part in sentences(text)
        if part.condition and _NUMBER.search(part.text) and holds(part.condition, dict(memory))
    ]
    out: set[str] = set()
    for param, key in sources.items():
        field_def = names.get(key)
        chosen = memory.get(key)
        others = [v for v in (field_def.enum_values or []) if v != chosen] if field_def else []
        if not others or chosen is None:
            continue
        for part in scoped:
            words = set(re.findall(r"[\w-]+", part.text))
            if key in condition_keys(part.condition) and words & set(map(str, others)):
                out.add(param)
    return frozenset(out)


def _whole(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool) and value == int(value)


__all__ = [
    "collected_fields",
    "loose_parameters",
    "optional_parameters",
    "reclassified",
    "sentence_pinned",
    "unpinned_parameters",
]
