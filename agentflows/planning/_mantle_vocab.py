"""The words a Mantle project uses for its values, and which values change the flow.

- `field_choices`: each enum value of a categorical field with the phrases that describe it
  (bracketed text after the value in the field's description, a collect step's description
  or the instructions of a step that sets it, and the titles of buttons whose payload sets
  it). Direction parsing and user lines both read them.
- `routing_conditions` / `value_groups`: a categorical value "routes differently" when it
  changes the truth of a block step's `next` branch condition or of a prose `if:` condition.
  Values that change none of them (they all fall to `else`) share one group.
- `example_value`: a realistic value for a text field, from `for example "..."` in its
  description or in a sibling field's (`selected_card_id` reads `selected_card_label`'s).
"""

from __future__ import annotations

from typing import Any

from evalcore.definitions import MantleDefinitions, MemoryField, Response, Skill, Step, memoized
from evalcore.definitions.conditions import condition_keys, conjuncts, evaluate
from evalcore.definitions.skill_model import paragraphs, skill_fields
from evalcore.lexicon.en.field_words import (
    CHANNEL,
    EXAMPLE,
    ID_SUFFIX,
    PHONE_NAME,
    PHONE_WORDS,
)
from evalcore.lexicon.notation.mantle_references import SET_PAYLOAD

from ..drafting.offline import Choice, value_phrases
from ._mantle_prose import prose_items

_EXAMPLE = EXAMPLE


def skill_field(defs: MantleDefinitions, qualified: str) -> MemoryField | None:
    return defs.memory_field(qualified)


def setting_steps(skill: Skill, key: str) -> list[Step]:
    """Steps that fill `key` (unqualified): collect steps and instructions completing on it."""
    out = []
    qualified = f"{skill.id}.{key}"
    for block in skill.blocks.values():
        for step in block.steps:
            if (step.kind == "collect" and step.target == key) or (
                step.kind == "instructions"
                and qualified in condition_keys(str(step.fields.get("complete_when") or ""))
            ):
                out.append(step)
    return out


def buttons_for(defs: MantleDefinitions, qualified: str) -> dict[Any, str]:
    """Value -> title of the first button whose payload sets the field to it."""
    return dict(memoized(defs, "buttons", lambda: _button_index(defs)).get(qualified, {}))


def _button_index(defs: MantleDefinitions) -> dict[str, dict[Any, str]]:
    """Field -> value -> first button title, from one scan of every response."""
    index: dict[str, dict[Any, str]] = {}
    for response in defs.all_responses().values():
        for variant in response.variants:
            for button in variant.buttons:
                match = SET_PAYLOAD.match(button.payload or "")
                if match:
                    index.setdefault(match["key"], {}).setdefault(
                        match["value"].strip(), button.title
                    )
    return index


def field_choices(defs: MantleDefinitions, qualified: str) -> list[Choice]:
    """Each enum value of a categorical field with its phrases (read once per field)."""
    return list(memoized(defs, ("choices", qualified), lambda: _field_choices(defs, qualified)))


def _field_choices(defs: MantleDefinitions, qualified: str) -> list[Choice]:
    field = skill_field(defs, qualified)
    if field is None or field.type != "categorical" or not field.enum_values:
        return []
    texts = [field.description or ""]
    skill = defs.skills.get(field.namespace)
    if skill is not None:
        for step in setting_steps(skill, field.name):
            texts.append(str(step.fields.get("description") or ""))
            if step.kind == "instructions":
                texts.append(str(step.target or ""))
    buttons = buttons_for(defs, qualified)
    choices = []
    for value in field.enum_values:
        phrases: list[str] = []
        for text in texts:
            phrases += value_phrases(text, [value]).get(value, [])
        if str(value) in buttons:
            phrases.append(buttons[str(value)])
        choices.append(Choice(qualified, value, tuple(dict.fromkeys(phrases))))
    return choices


def all_choices(defs: MantleDefinitions) -> list[Choice]:
    out: list[Choice] = []
    for skill in defs.skills.values():
        for field in skill.memory.values():
            out += field_choices(defs, field.qualified)
    return out


def routing_conditions(skill: Skill) -> list[str]:
    """Block branch conditions, prose `if:` conditions and `if:` lines inside step
    instructions, in definition order."""
    conditions = [
        branch.condition
        for block in skill.blocks.values()
        for step in block.steps
        if isinstance(step.next, list)
        for branch in step.next
        if branch.condition
    ]
    conditions += [c.condition for c in skill.prose_conditions]
    for block in skill.blocks.values():
        for step in block.steps:
            if step.kind == "instructions":
                conditions += [
                    p.condition for p in paragraphs(str(step.target or "")) if p.condition
                ]
    return list(dict.fromkeys(conditions))


def routing_fields(skill: Skill) -> list[MemoryField]:
    """The skill's categorical fields that some routing condition mentions."""
    keys = {k for c in routing_conditions(skill) for k in condition_keys(c)}
    return [
        f
        for f in skill.memory.values()
        if f.type == "categorical" and f.enum_values and f.qualified in keys
    ]


def channel_routing_fields(defs: MantleDefinitions, skill: Skill) -> list[MemoryField]:
    """Categorical channel-context fields (`project.channel`) a routing condition of the
    skill reads: the case seeds them, so each value group gets its own path."""
    keys = {k for c in routing_conditions(skill) for k in condition_keys(c)}
    return [
        f
        for f in channel_fields(defs)
        if f.type == "categorical" and f.enum_values and f.qualified in keys
    ]


def value_groups(skill: Skill, field: MemoryField) -> list[list[Any]]:
    """Enum values grouped by the routing conditions they make true (enum order kept)."""
    conditions = [c for c in routing_conditions(skill) if field.qualified in condition_keys(c)]
    groups: dict[tuple[bool, ...], list[Any]] = {}
    for value in field.enum_values or []:
        signature = tuple(evaluate(c, {field.qualified: value}) for c in conditions)
        groups.setdefault(signature, []).append(value)
    return list(groups.values())


def example_value(defs: MantleDefinitions, field: MemoryField) -> str | None:
    """A realistic value from `for example "..."` in the field's or a sibling's description."""
    candidates = [field]
    skill = defs.skills.get(field.namespace)
    if skill is not None:
        stem = ID_SUFFIX.sub("", field.name)
        candidates += [
            f for f in skill.memory.values() if f is not field and f.name.startswith(stem + "_")
        ]
    for candidate in candidates:
        match = _EXAMPLE.search(candidate.description or "")
        if match:
            return match.group(1).strip()
    return None


def first_text(response: Response | None) -> str | None:
    """The default (or first) variant's text of a response."""
    if response is None or not response.variants:
        return None
    default = next((v for v in response.variants if v.condition is None), response.variants[0])
    return default.text


def seen_text(
    response: Response | None, memory: dict[str, Any], untold: set[str]
) -> tuple[str | None, bool]:
    """The variant's text the runtime says over `memory` (the first whose condition holds,
    else the default; a name the path never sets reads as unset, as at runtime), and
    whether it can be told: not where a variant's condition turns on a name in `untold` (a
    tool's write whose value only the real tool knows) and no part of it the case fixes is
    false already. Untold gives `(None, True)`."""
    if response is None or not response.variants:
        return None, False

    def told(condition: str) -> bool:
        return not untold.intersection(condition_keys(condition))

    for variant in response.variants:
        condition = str(variant.condition or "")
        if not condition:
            return variant.text, False
        if told(condition):
            if evaluate(condition, memory):
                return variant.text, False
            continue
        parts = conjuncts(condition)  # `a and b`: one fixed part false settles it
        if not any(told(p) and not evaluate(p, memory) for p in parts):
            return None, True
    return first_text(response), False


def question_fields(defs: MantleDefinitions, skill: Skill) -> list[MemoryField]:
    """Categorical fields of the skill the agent asks the customer for (read once per skill)."""
    key = ("question_fields", skill.id, id(skill))
    return list(memoized(defs, key, lambda: _question_fields(defs, skill)))


def _question_fields(defs: MantleDefinitions, skill: Skill) -> list[MemoryField]:
    asked = {
        f"{skill.id}.{s.target}"
        for b in skill.blocks.values()
        for s in b.steps
        if s.kind == "collect"
    }
    asked |= {i.name for i in prose_items(skill) if i.kind == "ask_field" and i.name}
    asked |= {f.qualified for f in skill_fields(defs, skill, skill.path, 1)}
    for field in skill.memory.values():
        if setting_steps(skill, field.name):
            asked.add(field.qualified)
    return [
        f
        for f in skill.memory.values()
        if f.qualified in asked and f.type == "categorical" and f.enum_values
    ]


#: Seed project fields a channel knows before the conversation (never the identity under test).
_CHANNEL = CHANNEL


_PHONE_NAME = PHONE_NAME
_PHONE_WORDS = PHONE_WORDS


def is_caller_phone(field_def: MemoryField) -> bool:
    """A channel field that holds the caller's phone number: named so (`caller_phone`,
    `mobile`, `caller_number`) or described so ("in E.164 form", "the phone number")."""
    return bool(
        _PHONE_NAME.search(field_def.name.lower())
        or _PHONE_WORDS.search(field_def.description or "")
    )


def channel_fields(defs: MantleDefinitions) -> list[MemoryField]:
    """Seed project fields that are channel context (`caller_phone`, `preferred_language`)."""
    return [
        f
        for f in defs.memory.values()
        if f.seed and (_CHANNEL.search(f.name) or is_caller_phone(f))
    ]


__all__ = [
    "all_choices",
    "buttons_for",
    "channel_fields",
    "channel_routing_fields",
    "example_value",
    "field_choices",
    "first_text",
    "is_caller_phone",
    "question_fields",
    "routing_conditions",
    "routing_fields",
    "seen_text",
    "setting_steps",
    "skill_field",
    "value_groups",
]
