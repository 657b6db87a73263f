"""Who the case's user is in the project's own terms: a seeded field naming kinds of people.

A channel that knows what kind of user it talks to says so in a seeded field (reference §2:
`project.user_role: contractor`, `seed: true`), and the skills gate tools and `if:`
paragraphs on it (`requires: session.project.user_role == "contractor"`). A case whose
persona is a homeowner but whose session carries no role plays a session no channel makes,
and never reaches, nor is refused, what the role gates. So where a seeded categorical field's
values are the kinds of people the agent says it talks to (`_people.roles_for`), the case
seeds the value its persona is, or, when the case's seeds already fix the value (a
precondition, a planned path) or the skill's description names one kind ("A contractor
confirming their state license"), the persona is one of that kind.
"""

from __future__ import annotations

from typing import Any

from evalcore.definitions import MantleDefinitions, MemoryField, Skill, memoized
from evalcore.lexicon.en.request_words import WHO_FIELD as _WHO_FIELD
from evalcore.testdata import DataRecords, names_role, roles_for


def role_field(
    defs: MantleDefinitions, audience: str, records: DataRecords | None = None, shared: str = ""
) -> MemoryField | None:
    """The seeded categorical project field whose values name the agent's kinds of users
    (at least two values, and at least half of them, name one of its roles); None when the
    project's records hold it (`employees.json`'s `role`): a case's record decides who the
    user is there, not its persona. `shared`: the start `audience` has in common with the
    project's other skills' (`roles_for`)."""
    return memoized(
        defs,
        ("role_field", audience, id(records)),
        lambda: _role_field(defs, audience, records, shared),
    )


def _role_field(
    defs: MantleDefinitions, audience: str, records: DataRecords | None, shared: str
) -> MemoryField | None:
    roles = roles_for(audience, shared)
    for field in defs.memory.values():
        values = [str(v) for v in field.enum_values or []]
        if not field.seed or field.type != "categorical" or len(values) < 2:
            continue
        named = [v for v in values if any(names_role(v, r) for r in roles)]
        if len(named) >= 2 and 2 * len(named) >= len(values):
            return None if _recorded(field, records) else field
    return None


def _recorded(field: MemoryField, records: DataRecords | None) -> bool:
    """Whether a record of the project holds the field (`employees.json`'s `role`)."""
    collections = records.collections if records is not None else []
    return any(field.name in r for c in collections for r in c.records[:20])


def case_role(
    field: MemoryField, seeds: dict[str, Any], planned: dict[str, Any], skill: Skill
) -> str | None:
    """The kind of user the case must be: the value its seeds or its planned path fix, else
    the one kind the skill's description names ("A contractor confirming their state
    license ..."), else None (the persona decides)."""
    for values in (seeds, planned):
        if field.qualified in values:
            return str(values[field.qualified])
    named = [str(v) for v in field.enum_values or [] if names_role(str(v), skill.description or "")]
    return named[0] if len(named) == 1 else None


def seeded_kind(defs: MantleDefinitions, seeds: dict[str, Any]) -> str | None:
    """The kind of user a case's seeds fix where no role field reads the persona (a
    technicians-only skill's `account_type: technician`): the seeded value of a categorical
    seed field named for who the user is, else None."""
    fields = defs.memory_names()
    for key, value in seeds.items():
        field = fields.get(key)
        if field is None or not field.seed or field.type != "categorical":
            continue
        if isinstance(value, str) and _WHO_FIELD.search(field.name):
            return value
    return None


#: Project fields that hold the caller's name, whole or in parts.
_FIRST = ("first_name", "given_name", "firstname")
_LAST = ("last_name", "surname", "family_name", "lastname")
_WHOLE = ("name", "full_name", "display_name", "username", "user_name")


def seeded_caller(defs: MantleDefinitions) -> str | None:
    """The caller the session starts knowing, by name, where project memory seeds one
    (`customer_first_name: Serena` and `customer_last_name: Williams`, or `username:
    Serena Williams` "display name"), so the case's user is that person; else None."""
    return memoized(defs, "seeded_caller", lambda: _seeded_caller(defs))


def _seeded_caller(defs: MantleDefinitions) -> str | None:
    first = last = whole = None
    for name, field in defs.memory.items():
        value = field.initial_value
        if not isinstance(value, str) or not _person_name(value):
            continue
        lowered = name.lower()
        if lowered.endswith(_FIRST) and len(value.split()) == 1:
            first = first or value
        elif lowered.endswith(_LAST) and len(value.split()) == 1:
            last = last or value
        elif lowered.endswith(_WHOLE) and len(value.split()) >= 2:
            whole = whole or value
    if first and last:
        return f"{first} {last}"
    return whole


def _person_name(value: str) -> bool:
    """`Serena Williams`, `Beyoncé`, `O'Connell`: capitalised words of letters only (not
    `Fiber 500`, `RTR-123-01`)."""
    words = value.split()
    return 0 < len(words) <= 4 and all(
        w[:1].isupper() and w.replace("-", "").replace("'", "").isalpha() for w in words
    )


def role_seed(field: MemoryField, role: str) -> dict[str, Any]:
    """The seed that says the persona's kind (`{"project.user_role": "homeowner"}` for "a
    homeowner doing work on the home they live in"); {} when no value names it."""
    for value in field.enum_values or []:
        if names_role(str(value), role):
            return {field.qualified: value}
    return {}


__all__ = ["case_role", "role_field", "role_seed", "seeded_caller", "seeded_kind"]
