"""The case's test data for a Mantle walk: values for the fields the user answers, and the
fact each ask turns into (`label: value`, as the fact-sheet context lists it).

Values are fixed before the walk (`fill_values`) so that the assertions read from the walk
and the facts the simulated user gives agree. A categorical field keeps the value the path
chose; a number, date, id or e-mail comes from `evalcore.testdata` (a record of the project's
`data/*.json` when one matches, else a value typed by the field); an internal id the user
cannot know ("exactly as list_cards returned it") is answered with its label sibling's example.
A field nothing fits is left to the walk and named by its example, never by filler.
"""

from __future__ import annotations

import re
from typing import Any

from evalcore.definitions import MantleDefinitions, MemoryField, Skill
from evalcore.testdata import FieldSpec, SheetBuilder, spoken_value

from ...planning._mantle_phrases import second_person
from ...planning._mantle_vocab import example_value
from ...planning._mantle_walk import SET, Ask, Walk
from ._direction import value_words

_INTERNAL = re.compile(r"\binternal\b|\bas \w+ returned\b|\breturned by\b|\bexactly as\b", re.I)
_ASK_CLAUSE = re.compile(
    r"\bask(?:s)?\b(?:\s+(?:in|with)\s+one\s+(?:short\s+)?question)?\s+"
    r"(?P<clause>(?:which|what|whether|if|how|for|who|when|where)\b[^.;:]*)",
    re.IGNORECASE,
)


def spec_of(field: MemoryField) -> FieldSpec:
    return FieldSpec(
        field.name, field.type, field.description or "", tuple(field.enum_values or ())
    )


def is_internal(field: MemoryField) -> bool:
    return bool(_INTERNAL.search(field.description or ""))


def field_value(defs: MantleDefinitions, field: MemoryField, sheet: SheetBuilder) -> Any:
    """The case's value for a field the user answers (None: leave it to the walk)."""
    if field.type in ("categorical", "bool"):
        return None
    if field.type == "text" and is_internal(field):
        return example_value(defs, field)
    value = sheet.value(spec_of(field))
    if value is None and field.type == "text":
        return example_value(defs, field)
    return value


def fill_values(
    defs: MantleDefinitions, walk: Walk, values: dict[str, Any], sheet: SheetBuilder
) -> dict[str, Any]:
    """`values` plus a test-data value for every field an ask of `walk` fills and the
    behaviour did not fix."""
    out = dict(values)
    fields = defs.memory_names()
    for ask in walk.asks:
        key = ask.field
        if not key or key in out or key not in fields:
            continue
        value = field_value(defs, fields[key], sheet)
        if value is not None:
            out[key] = value
    return out


def asked_clause(text: str) -> str | None:
    """`... and ask which one needs replacing.` -> `which one needs replacing`."""
    match = _ASK_CLAUSE.search(" ".join(text.split()))
    if match is None:
        return None
    clause = match["clause"].strip().rstrip(",")
    clause = re.sub(r",?\s+and\s+record\b.*$", "", clause, flags=re.IGNORECASE)
    return re.sub(r"^for\s+(?:the\s+)?", "", clause)


def label_for(ask: Ask) -> str:
    """What the fact of `ask` is, in plain words (the agent's question, else the field)."""
    prompt = " ".join((ask.prompt or "").split())
    if ask.kind == "question" and ask.details:
        return f"whether {second_person(ask.details[0])}"
    if ask.kind == "collect" and prompt and "{" not in prompt and len(prompt) <= 90:
        question = prompt.rstrip("?. ")
        question = re.split(r"(?<=[.!])\s+", question)[-1]
        return question[:1].lower() + question[1:]
    clause = asked_clause(prompt)
    if clause and len(clause.split()) <= 12:
        return second_person(clause)
    return value_words((ask.field or "details").split(".", 1)[-1])


def spoken(defs: MantleDefinitions, qualified: str | None, value: Any) -> str | None:
    """A walk value as the user says it; None for a value the walk does not know."""
    if value is None or value is SET:
        return None
    field = defs.memory_names().get(qualified or "")
    spec = spec_of(field) if field is not None else None
    if isinstance(value, str) and spec is not None and spec.enum_values:
        return value_words(value)
    return spoken_value(value, spec)


def audience_text(defs: MantleDefinitions, skill: Skill) -> str:
    """The words that say who uses the agent: agent.yml and the skill descriptions (the
    planned skill's twice, so it weighs most)."""
    agent = defs.agent or {}
    parts = [str(agent.get(k) or "") for k in ("name", "description", "persona")]
    parts += [s.description or "" for s in defs.skills.values()]
    parts += [skill.description or ""] * 2
    return " ".join(parts)


__all__ = [
    "asked_clause",
    "audience_text",
    "field_value",
    "fill_values",
    "is_internal",
    "label_for",
    "spec_of",
    "spoken",
]
