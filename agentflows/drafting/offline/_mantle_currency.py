"""The case's amounts in the currency its currency field says it pays in
(`evalcore.testdata._money`): a total read out as `$91.80` beside `currency: GBP` is two
currencies at once. A case that corrects the currency says them bare (`91.80`): the sign would
give away the answer the user first gives wrongly."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from evalcore.definitions import MantleDefinitions, MemoryField, memoized
from evalcore.testdata import Fact, currency_codes, in_currency, unsigned


def paid_currency(defs: MantleDefinitions, memory: dict[str, Any], facts: list[Fact]) -> str | None:
    """The code of the currency the case pays in: the value its walk leaves in a field whose
    choices are currency codes (the corrected one, after a correction), else the value a
    fact gives such a field; None where the case has none."""
    for key, field in _currency_fields(defs):
        value = memory.get(key)
        if isinstance(value, str) and value in (field.enum_values or []):
            return value
        for fact in facts:
            if fact.field == key and fact.value.strip().upper() in (field.enum_values or []):
                return fact.value.strip().upper()
    return None


def _currency_fields(defs: MantleDefinitions) -> list[tuple[str, MemoryField]]:
    """(qualified name, field) of each field whose choices are currency codes, in the
    project's order: one list per definitions (found per case, it read every field)."""
    key = ("currency_fields", id(defs.memory), len(defs.memory), id(defs.skills), len(defs.skills))
    return memoized(
        defs,
        key,
        lambda: [
            (name, field)
            for name, field in defs.memory_names().items()
            if field.type == "categorical" and currency_codes(field.enum_values or [])
        ],
    )


def is_currency(defs: MantleDefinitions, key: str) -> bool:
    """Whether the field `key` names is a choice of currency codes (`[USD, GBP, EUR]`)."""
    field = defs.memory_field(key)
    return (
        field is not None
        and field.type == "categorical"
        and currency_codes(field.enum_values or [])
    )


def facts_in_currency(facts: list[Fact], code: str | None, bare: bool = False) -> list[Fact]:
    """`facts` with their dollar amounts said in `code`; `bare`: said without a sign."""
    if bare:
        return [replace(f, value=unsigned(f.value)) for f in facts]
    if code is None:
        return facts
    return [replace(f, value=in_currency(f.value, code)) for f in facts]


def said_in(text: str, code: str | None, bare: bool = False) -> str:
    """`text` with its dollar amounts said in `code` (bare: without a sign)."""
    if bare:
        return unsigned(text)
    return text if code is None else in_currency(text, code)


__all__ = ["facts_in_currency", "in_currency", "is_currency", "paid_currency", "said_in"]
