"""One coherent fact sheet per case: the persona and the facts they can give.

    sheet = SheetBuilder("card_replace.stolen", audience_text, load_records(root))
    policy = sheet.value(FieldSpec("policy_number", "text", "Policy number, e.g. PL-20931"))
    sheet.add("policy number", policy, field="file_claim.policy_number")
    sheet.persona.sentence   # the holder of that policy when data/policies.json names one

Values come from, in order: what the case fixes (the path's enum value), the record this case
drew from the project's data files (one record per collection per case, so a policy number
and its holder's name belong together), the ids the project's text lists for the field
(`FieldSpec.listed`), then `typed_value`. Everything is keyed by the case id.
"""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass, field, replace
from typing import Any

from ._people import Persona, persona_for
from ._records import Collection, DataRecords, record_name, role_prefix
from ._rng import case_rng
from ._values import _MONEY, FieldSpec, date_format, spoken_date, typed_value

_ISO_DAY = re.compile(r"\d{4}-\d\d-\d\d")
#: Record keys that say a person's job (`role: shift_lead`, `title: engineering manager`).
_ROLE_KEYS = ("role", "job_title", "title", "position")


def _a(role: str) -> str:
    """A record's role with its article, as a persona says it (`shift_lead` -> `a shift
    lead`)."""
    words = " ".join(role.replace("_", " ").split())
    return f"{'an' if words[:1].lower() in 'aeiou' else 'a'} {words}"


@dataclass(frozen=True)
class Fact:
    """Something the user knows and gives when asked."""

    label: str
    """What it is, in plain words (`policy number`, `what happened to the card`)."""
    value: str
    """As the user would say it (`PL-20931`, `it was stolen`, `03/14/2026`)."""
    field: str | None = None
    """The qualified field it fills, for the drafter (never shown to the user)."""


@dataclass
class FactSheet:
    persona: Persona
    facts: list[Fact] = field(default_factory=list)
    records: dict[str, dict[str, Any]] = field(default_factory=dict)
    """Collection name -> the record this case uses."""


def spoken_value(value: Any, spec: FieldSpec | None = None) -> str:
    """A value as a person says it: `yes`, `$82.40`, `not received`, `PL-20931`."""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, float):
        if spec is not None and _MONEY.search(spec.text):
            return f"${value:,.2f}"
        return f"{value:g}"
    if isinstance(value, int):
        return str(value)
    text = str(value)
    # `not_received` is said "not received"; an upper-case id (`C_GENERAL`) is read out as is
    if (
        "_" in text
        and " " not in text
        and not any(c.isdigit() for c in text)
        and not text.isupper()
    ):
        return text.replace("_", " ")
    return text


class SheetBuilder:
    """Builds one case's `FactSheet` (see module doc)."""

    def __init__(
        self,
        key: str,
        audience: str,
        records: DataRecords | None = None,
        *,
        first_name: str | None = None,
        prefer: frozenset[str] = frozenset(),
        slot: int | None = None,
        role_value: str | None = None,
        require: dict[str, frozenset[str]] | None = None,
        shared: str = "",
        full_name: str | None = None,
    ) -> None:
        self.key = key
        self.require = require or {}
        """Field -> the values a tool of the case works only with (see `DataRecords.pick`)."""
        self.slot = slot
        """The case's place among the suite's cases of its skill (records are dealt in turn)."""
        self.records = records or DataRecords()
        self.prefer = prefer
        """Values the case fixes (`auto`): a record holding one is drawn first."""
        self.sheet = FactSheet(
            persona_for(
                audience,
                key,
                first_name=first_name,
                role_value=role_value,
                shared=shared,
                fits=prefer,
                slot=slot,
            )
        )
        if full_name:  # the caller the project's session already knows
            self.sheet.persona = self.sheet.persona.renamed(full_name)
        self._named = first_name is not None or bool(full_name)

    @property
    def persona(self) -> Persona:
        return self.sheet.persona

    def hold(self, record: dict[str, Any]) -> None:
        """Take `record` (the seeded caller's own) as this case's record of its file, so
        every fact drawn from that file is the caller's."""
        for collection in self.records.collections:
            if any(r is record for r in collection.records):
                self.sheet.records[collection.name] = record
                holder = record_name(record)
                if holder:  # the record's own surname, not a drawn one
                    self.sheet.persona = self.sheet.persona.renamed(holder)
                role = next((record[k] for k in _ROLE_KEYS if isinstance(record.get(k), str)), "")
                if role.strip():  # the job the record gives them, not a drawn one
                    self.sheet.persona = replace(self.sheet.persona, role=_a(role))
                self._named = True
                return

    def record_for(self, collection: Collection) -> dict[str, Any]:
        """This case's record of `collection` (drawn once, then kept)."""
        chosen = self.sheet.records.get(collection.name)
        if chosen is None:
            rng = case_rng(self.key, f"record:{collection.name}")
            chosen = self.records.pick(
                collection, rng, self.prefer, slot=self.slot, require=self.require
            )
            self.sheet.records[collection.name] = chosen
            holder = record_name(chosen)
            if holder and not self._named:
                self.sheet.persona = self.sheet.persona.renamed(holder)
                self._named = True
        return chosen

    def role_record(self, collection: Collection, prefix: str) -> dict[str, Any]:
        """The case's record of `collection` in one role (`from_station`, `to_station`):
        each role its own record, another than the other roles' while the file has one."""
        name = f"{collection.name}#{prefix}"
        chosen = self.sheet.records.get(name)
        if chosen is None:
            taken = [
                r for n, r in self.sheet.records.items() if n.startswith(f"{collection.name}#")
            ]
            own = self.records.owned(collection.records)
            free = [r for r in own if r not in taken] or own
            rng = case_rng(self.key, f"record:{name}")
            chosen = free[rng.randrange(len(free))]
            self.sheet.records[name] = chosen
        return chosen

    def from_records(self, spec: FieldSpec) -> Any:
        """The field's value in this case's record of the collection it matches, if any."""
        drawn = frozenset(self.sheet.records)
        found = self.records.match(spec.name, drawn, spec.narrative_of)
        for alias in spec.aliases:
            if found is not None:
                break
            # by a parameter's name only a collection the case holds no record of yet: the
            # record it holds is the user's own (`coworker_name` fills `first_name`, and the
            # case's record of the employees is the user's)
            found = self.records.match(alias, drawn, spec.narrative_of)
            if found is not None and found[0].name in drawn:
                found = None
        if found is None:
            return None
        collection, key = found
        prefix = role_prefix(spec.name, key)
        record = self.role_record(collection, prefix) if prefix else self.record_for(collection)
        value = record.get(key)
        if spec.enum_values and value not in spec.enum_values:
            return None
        if isinstance(value, str) and _ISO_DAY.fullmatch(value):
            day = dt.date.fromisoformat(value)
            fmt = date_format(spec.description)
            return day.strftime(fmt) if fmt else spoken_date(day)
        return value

    def value(self, spec: FieldSpec, fixed: Any = None) -> Any:
        """The value of `spec` in this case (fixed by the path, else a record, else typed)."""
        if fixed is not None:
            return fixed
        found = self.from_records(spec)
        if found is not None:
            return found
        if spec.listed:  # the project's own set: dealt in turn across the suite's cases
            if self.slot is not None:
                return spec.listed[self.slot % len(spec.listed)]
            return case_rng(self.key, f"listed:{spec.name}").choice(spec.listed)
        return typed_value(spec, case_rng(self.key, f"value:{spec.name}"), self.persona)

    def add(self, label: str, value: Any, *, field: str | None = None) -> Fact | None:
        """Record a fact (once per label); None values are left out, never filler."""
        if value is None or str(value).strip() == "":
            return None
        for fact in self.sheet.facts:
            if fact.label == label:
                return fact
        fact = Fact(label, value if isinstance(value, str) else spoken_value(value), field)
        self.sheet.facts.append(fact)
        return fact


__all__ = ["Fact", "FactSheet", "SheetBuilder", "spoken_value"]
