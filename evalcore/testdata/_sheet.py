"""One coherent fact sheet per case: the persona and the facts they can give.

    sheet = SheetBuilder("card_replace.stolen", audience_text, load_records(root))
    policy = sheet.value(FieldSpec("policy_number", "text", "Policy number, e.g. PL-20931"))
    sheet.add("policy number", policy, field="file_claim.policy_number")
    sheet.persona.sentence   # the holder of that policy when data/policies.json names one

Values come from, in order: what the case fixes (the path's enum value), the record this case
drew from the project's data files (one record per collection per case, so a policy number
and its holder's name belong together), the ids the project's text lists for the field
(`FieldSpec.listed`), then `typed_value`, whose draw is made again where it lands on a value
the case's own records hold (a trip to "Chicago or London" for a London-based caller goes to
Chicago). Everything is keyed by the case id.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any

from ._absent import NONE_VALUES, Absence, recorded
from ._codes import own_code
from ._people import MANNERS, Persona, persona_for
from ._records import Collection, DataRecords, record_name, role_prefix
from ._rng import case_rng
from ._slots import past_slot, slot_days
from ._values import (
    _MONEY,
    FieldSpec,
    date_format,
    draw_day,
    is_date,
    next_weekday,
    reference_day,
    span_role,
    spoken_date,
    stated_unit,
    token_shapes,
    typed_value,
    weekday_said,
    weekdays_in,
    with_unit,
    written_day,
)
from ._versions import names_the_next, next_release, tags_in

_ISO_DAY = re.compile(r"\d{4}-\d\d-\d\d")
#: A record value that starts with an ISO day (`2026-11-05`, `2026-12-02T10:00`).
_ISO_START = re.compile(r"(\d{4}-\d\d-\d\d)(?:$|[T ])")
#: An id's shape a description writes out (`OPN-#####`, `E#####`, `HM-XX-#######`,
#: `CLM-YYYY-#####`): a prefix, maybe placeholder parts, then `#` for each digit.
_HASHED = re.compile(r"\b[A-Z]{1,6}(?:-(?:[A-Z]{1,6}|#+))*-?#{2,}(?![#\w])")


def described_shape(description: str) -> re.Pattern[str] | None:
    """The id shapes a field's description writes out with `#` for each digit (`OPN-#####`
    -> `OPN-\\d{5}`; a later part in capitals, `XX` or `YYYY`, stands for any), or as a
    token's prefix and length (`evt_ followed by 12 characters` -> `evt_[A-Za-z0-9]{12}`),
    else None."""
    shapes = []
    for found in _HASHED.findall(description or ""):
        first, *rest = re.split(r"(-)", found, maxsplit=0)
        parts = [_part(first, literal=True), *(_part(p) for p in rest)]
        shapes.append("".join(parts))
    for token in token_shapes(description):
        shapes.append(rf"(?i:{re.escape(token.prefix)})[A-Za-z0-9]{{{token.size}}}")
    return re.compile("|".join(shapes)) if shapes else None


def names_an_id(name: str) -> bool:
    """A field named as an id (`open_shift_id`, `policy_number`), not a reason or a note."""
    return name.lower().rsplit("_", 1)[-1] in ("id", "number", "ref", "reference", "code", "no")


def _part(text: str, *, literal: bool = False) -> str:
    """One part of a written-out id shape as a pattern (see `described_shape`)."""
    if text == "-":
        return "-"
    head = text.rstrip("#")
    hashes = len(text) - len(head)
    if not head:
        return rf"\d{{{hashes}}}"
    lead = re.escape(head) if literal else "[A-Z0-9]+"
    return lead + (rf"\d{{{hashes}}}" if hashes else "")


#: Record keys that say a person's job (`role: shift_lead`, `title: engineering manager`).
_ROLE_KEYS = ("role", "job_title", "title", "position")


def _scalar(value: Any) -> bool:
    return isinstance(value, str | int | float) and not isinstance(value, bool)


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
    misfits: list[str] = field(default_factory=list)
    """Why a record the case names is off its path: the file holds none that fits (a
    prescription with refills left for this patient), so the case needs review."""


def spoken_value(value: Any, spec: FieldSpec | None = None) -> str:
    """A value as a person says it: `yes`, `$82.40`, `not received`, `PL-20931`."""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, float):
        if spec is not None and _MONEY.search(spec.text):
            return f"${value:,.2f}"
        return with_unit(f"{value:g}", stated_unit(spec) if spec is not None else None)
    if isinstance(value, int):
        return with_unit(str(value), stated_unit(spec) if spec is not None else None)
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


#: The fewest dated values a project's records hold for their own present to be read.
_FEW_DAYS = 5


#: Words of an opening that fix the day relative to the run ("move my 3pm to tomorrow").
_RELATIVE_DAYS = ("tomorrow", "today")


def _days(record: dict[str, Any]) -> list[dt.date]:
    """The days a record's values start with (`2026-11-05`, `2026-12-02T10:00`)."""
    out = []
    for value in record.values():
        found = _ISO_START.match(value) if isinstance(value, str) else None
        if found is not None:
            try:
                out.append(dt.date.fromisoformat(found[1]))
            except ValueError:
                continue
    return out


def _present(records: DataRecords) -> dt.date | None:
    """The data's own present (`SheetBuilder._since`): the day three quarters of the
    records' days fall on or before, None where they hold fewer than `_FEW_DAYS` (too few
    to tell the data's past from its bounds). Found once per files: every case asks."""
    every = sorted(day for c in records.collections for r in c.records for day in _days(r))
    if len(every) < _FEW_DAYS:
        return None
    return every[len(every) * 3 // 4]


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
        related: frozenset[str] = frozenset(),
    ) -> None:
        self.key = key
        self.require = require or {}
        """Field -> the values a tool of the case works only with (see `DataRecords.pick`)."""
        self.related = related
        """Record keys a check of the case's path compares between two records (the caller's
        `team` and the service's): the records drawn agree on them, as `*_id` keys link."""
        self.waivers: dict[str, frozenset[str]] = {}
        """Related key -> record flags the check accepts instead (`sre`): a caller whose
        flag holds is not tied to a target that agrees on the key."""
        self.holds: dict[str, Callable[[Any], bool]] = {}
        """Field -> a test a record's value passes on the case's path (see `DataRecords.pick`)."""
        self.holds_why: dict[str, str] = {}
        """Field -> what its test asks, in the words of the definition behind it."""
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
        self._drawn_days: dict[str, tuple[FieldSpec, dt.date]] = {}
        """A drawn date as the user says it -> its field and day (`on_weekdays` moves it)."""
        self._span_start: dt.date | None = None
        """The day the case's span starts (`override_start`), for its end to follow."""
        self._others: dict[str, dict[str, Any]] = {}
        """A field's first word (`coworker`) -> the other person's record it drew."""
        self.caller: str | None = None
        """The collection whose record `hold` took as the caller's own (`engineers`)."""

    @property
    def persona(self) -> Persona:
        return self.sheet.persona

    def hold(self, record: dict[str, Any], name: str | None = None) -> None:
        """Take `record` (the seeded caller's own, or the one they are nested in) as this
        case's record of its file, so every fact drawn from that file is the caller's;
        `name` is theirs where the record does not name them (a booking)."""
        for collection in self.records.collections:
            if any(r is record for r in collection.records):
                self.sheet.records[collection.name] = record
                self.caller = collection.name
                holder = name or record_name(record)
                if holder:  # the record's own surname, not a drawn one
                    self.sheet.persona = self.sheet.persona.renamed(holder)
                if name and self.slot is not None:
                    # the few people named inside other records (each booking's lead
                    # passenger) recur among a skill's cases: each of their cases talks in
                    # another manner, dealt in turn
                    manner = MANNERS[self.slot % len(MANNERS)]
                    self.sheet.persona = replace(self.sheet.persona, manner=manner)
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
            linked = self.linked()
            chosen = self.records.pick(
                collection,
                rng,
                self.prefer,
                slot=self.slot,
                require=self.require,
                linked=linked,
                referenced=self.referenced(),
                holds=self.holds,
            )
            self.sheet.records[collection.name] = chosen
            self._check_fit(collection, chosen, self.records.none_owned(collection.records, linked))
            holder = record_name(chosen)
            if holder and not self._named:
                self.sheet.persona = self.sheet.persona.renamed(holder)
                self._named = True
        return chosen

    def _check_fit(
        self, collection: Collection, record: dict[str, Any], foreign: str | None = None
    ) -> None:
        """Note in `misfits` a path condition the drawn record fails (see `FactSheet`): the
        file held no record of the case's that passes it, and a case is never silently
        about another one."""
        where = collection.where or collection.name
        if foreign:  # the caller holds none: `owned` fell back to the whole file
            self.sheet.misfits.append(
                f"no-fitting-record: {where} holds no record of this case's {foreign}; "
                "the case names another's"
            )
        for key, values in self.require.items():
            if key in record and str(record[key]) not in values:
                wanted = " or ".join(sorted(values))
                self.sheet.misfits.append(
                    f"no-fitting-record: {where} holds no record of this case with "
                    f"{key} {wanted}, which the tool's code works only with (drawn: "
                    f"{key} {record[key]})"
                )
        if past_slot(record):
            day = max(slot_days(record)).isoformat()
            self.sheet.misfits.append(
                f"no-fitting-record: {where} holds no record of this case dated on or after "
                f"the run day, which the user acts on as still to come (drawn: {day})"
            )
        for key, test in self.holds.items():
            if key in record and not test(record[key]):
                why = self.holds_why.get(key, "the case's path")
                self.sheet.misfits.append(
                    f"no-fitting-record: {where} holds no record of this case whose {key} "
                    f"fits {why} (drawn: {key} {record[key]})"
                )

    def linked(self) -> dict[str, str]:
        """The ids (`*_id` keys, and the `related` keys) of the records this case holds,
        each with its value where they agree: a record of another file that carries one is
        the case's only with that value (the caller's own shift, the held patient's
        prescription, a service of the caller's team), so the facts of one case come from
        one person's records."""
        out: dict[str, str] = {}
        clash: set[str] = set()
        held = [r for name, r in self.sheet.records.items() if "#" not in name]
        waived = {
            key
            for key, flags in self.waivers.items()
            if any(r.get(flag) is True for r in held for flag in flags)
        }
        for name, record in self.sheet.records.items():
            if "#" in name:  # one role's record (`from_station`): not the case's own
                continue
            for key, value in record.items():
                related = key in self.related and key not in waived
                linking = key.lower().endswith("_id") or related
                if not linking or not isinstance(value, str | int):
                    continue
                if isinstance(value, bool) or not str(value).strip():
                    continue
                if key in out and out[key] != str(value):
                    clash.add(key)
                out.setdefault(key, str(value))
        return {k: v for k, v in out.items() if k not in clash}

    def _same_thing(self, name: str) -> Any:
        """The id of the other person a field of the same first word drew (`coworker_id`
        after `coworker_name` named Lucía: Lucía's `employee_id`), else None."""
        head, _, rest = name.lower().partition("_")
        record = self._others.get(head)
        if record is None or rest not in ("id", "number"):
            return None
        keys = [k for k in record if k.lower().endswith("_id") and _scalar(record[k])]
        return record[keys[0]] if keys else None

    def referenced(self) -> frozenset[str]:
        """The scalar values of the records this case holds (`home_store: ST-022`): a
        record of another file whose own id is one of them is the one they point at."""
        return frozenset(
            str(v)
            for name, record in self.sheet.records.items()
            if "#" not in name
            for v in record.values()
            if _scalar(v) and str(v).strip()
        )

    def other_record(self, collection: Collection) -> dict[str, Any] | None:
        """A record of `collection` other than the one the case holds (the coworker the
        user names, not the user), among them one sharing most of the held record's values,
        a reference (a value with digits: the same store, unit or team) before a word (the
        same job); drawn once, then kept. None where the file holds nobody else."""
        name = f"{collection.name}#other"
        chosen = self.sheet.records.get(name)
        held = self.sheet.records.get(collection.name)
        if chosen is None:
            others = [r for r in collection.records if r is not held]
            if not others:
                return None

            def shared(record: dict[str, Any]) -> int:
                if held is None:
                    return 0
                return sum(
                    2 if any(c.isdigit() for c in str(v)) else 1
                    for k, v in record.items()
                    if _scalar(v) and held.get(k) == v
                )

            best = max(shared(r) for r in others)
            pool = [r for r in others if shared(r) == best]
            chosen = pool[case_rng(self.key, f"record:{name}").randrange(len(pool))]
            self.sheet.records[name] = chosen
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

    def held_value(self, spec: FieldSpec) -> Any:
        """The field's value in a record this case already holds (the drink's row of the
        recipe card gives its size: a cortado only comes single), else None: a choice the
        data does not offer for that record is never the case's."""
        drawn = frozenset(self.sheet.records)
        found = self.records.match(spec.name, drawn, spec.narrative_of)
        if found is None or found[0].name not in drawn:
            return None
        value = self.sheet.records[found[0].name].get(found[1])
        return value if not spec.enum_values or value in spec.enum_values else None

    def from_records(self, spec: FieldSpec) -> Any:
        """The field's value in this case's record of the collection it matches, if any."""
        same = self._same_thing(spec.name)
        if same is not None:  # `coworker_id` of the coworker `coworker_name` named
            return same
        drawn = frozenset(self.sheet.records)
        found = self.records.match(spec.name, drawn, spec.narrative_of)
        other = False
        for alias in spec.aliases:
            if found is not None:
                break
            # by a parameter's name in a collection the case holds a record of: the record
            # it holds is the user's own (`coworker_name` fills `first_name`, and the case's
            # record of the employees is the user's), so the value is someone else's there
            found = self.records.match(alias, drawn, spec.narrative_of)
            other = found is not None and found[0].name in drawn
        if found is None:
            return None
        collection, key = found
        prefix = role_prefix(spec.name, key)
        if other:
            record = self.other_record(collection)
            if record is not None and "_" in spec.name:
                self._others[spec.name.split("_", 1)[0].lower()] = record
        elif prefix:
            record = self.role_record(collection, prefix)
        else:
            record = self.record_for(collection)
        if record is None:
            return None
        value = record.get(key)
        if spec.enum_values and value not in spec.enum_values:
            return None
        shape = described_shape(spec.description) if names_an_id(spec.name) else None
        if shape is not None and not shape.fullmatch(str(value)):
            return None  # another thing's id (a shift's `SH-…` for an `OPN-#####`)
        if isinstance(value, str) and _ISO_DAY.fullmatch(value):
            day = dt.date.fromisoformat(value)
            fmt = date_format(spec.description)
            return day.strftime(fmt) if fmt else spoken_date(day)
        return value

    def _held(self, value: str) -> bool:
        """Whether a record of the case's own holds `value` (the caller's `home_office`):
        an example drawn for what the user asks for that is what they already have (a trip
        to the city they are based in) is no request."""
        said = value.strip().lower()
        return any(
            isinstance(v, str) and v.strip().lower() == said
            for name, record in self.sheet.records.items()
            if "#" not in name
            for v in record.values()
        )

    def value(self, spec: FieldSpec, fixed: Any = None) -> Any:
        """The value of `spec` in this case (fixed by the path, else a record, else typed);
        an id that opens with a code of the data opens with the case's own (`_codes`)."""
        if fixed is not None:
            return fixed
        drawn = self._drawn(spec)
        if not names_an_id(spec.name):
            return drawn
        held = [r for name, r in self.sheet.records.items() if "#" not in name]
        return own_code(drawn, self.records, held)

    def _drawn(self, spec: FieldSpec) -> Any:
        ahead = self._next_release(spec)
        if ahead is not None:
            return ahead
        found = self.from_records(spec)
        if found is not None:
            return found
        if spec.type == "categorical" and spec.enum_values:
            fits = self._by_membership(spec)
            if len(fits.enum_values) == 1:
                return fits.enum_values[0]
            if fits != spec:  # the same draw as without the records where it fits them
                drawn = typed_value(spec, case_rng(self.key, f"value:{spec.name}"), self.persona)
                if drawn in fits.enum_values:
                    return drawn
                spec = fits
        if spec.listed:  # the project's own set: dealt in turn across the suite's cases
            if self.slot is not None:
                return spec.listed[self.slot % len(spec.listed)]
            return case_rng(self.key, f"listed:{spec.name}").choice(spec.listed)
        rng = case_rng(self.key, f"value:{spec.name}")
        written = _HASHED.search(spec.description) if names_an_id(spec.name) else None
        if written is not None and re.fullmatch(r"[A-Z]+-?#+", written.group()):
            # the shape the description writes out (`INC-####`), never another one
            return "".join(str(rng.randrange(10)) if c == "#" else c for c in written.group())
        if spec.type not in ("categorical", "bool", "int", "float") and is_date(spec):
            role = span_role(spec)  # one end of a span: the end after the case's start
            day = draw_day(spec, rng, self._span_start if role == "end" else None, self._since())
            if role == "start" and isinstance(day, dt.date):
                self._span_start = day
            said = written_day(spec, day, rng)
            if isinstance(day, dt.date):
                self._drawn_days[said] = (spec, day)
            return said
        typed = typed_value(spec, rng, self.persona)
        if not isinstance(typed, str) or not self._held(typed):
            return typed
        for turn in range(1, 8):  # one of the examples the case's records do not hold
            other = typed_value(spec, case_rng(self.key, f"value:{spec.name}:{turn}"), self.persona)
            if isinstance(other, str) and not self._held(other):
                return other
        return typed

    def recorded(self, spec: FieldSpec) -> Absence | None:
        """What the case's records say of the field's thing (`_absent.recorded`): a bag
        whose row says `report: null` has no report, a passenger with no loyalty number no
        tier."""
        held = [r for name, r in self.sheet.records.items() if "#" not in name]
        return recorded(self.records, held, self.persona.name, spec.name, spec.description)

    def _by_membership(self, spec: FieldSpec) -> FieldSpec:
        """A choice with a value for "none of it" (`loyalty_tier: none`): that value alone
        where the case's records hold none of the thing, the others where they hold one."""
        none = [v for v in spec.enum_values if str(v).strip().lower() in NONE_VALUES]
        said = self.recorded(spec) if none else None
        if said is None:
            return spec
        kept = [v for v in spec.enum_values if (v in none) != said.held]
        return replace(spec, enum_values=tuple(kept)) if kept else spec

    def _next_release(self, spec: FieldSpec) -> str | None:
        """The tag a change moves the case's own record to (`target_version` of the service
        the case holds, running v1.9.0 in staging: v1.9.1), else None: never another
        service's tag, the one it already runs, nor one below it (see `_versions`)."""
        if not names_the_next(spec.name):
            return None
        held = [
            tag
            for name, record in self.sheet.records.items()
            if "#" not in name
            for tag in tags_in(record)
        ]
        return next_release(held)

    def _since(self) -> dt.date | None:
        """The latest day the case's records hold of the data's past (a prescription's last
        fill, a ledger's last entry): a day the user gives for something ahead comes after
        it. A record's day beyond the data's own present (three quarters of the project's
        record days fall on or before it) bounds what is ahead (a passport's expiry), so it
        is left out; a project with fewer than `_FEW_DAYS` dated values gives no floor (a
        handful of expiries has no present)."""
        present = self.records.derived(("present",), (), lambda: _present(self.records))
        if present is None:
            return None
        held = [d for r in self.sheet.records.values() for d in _days(r) if d <= present]
        return max(held, default=None)

    def named_day(self, weekday: int, line: str) -> tuple[dt.date, str]:
        """The day a user who names `weekday` in `line` asks for, and `line` as they say
        it: the first such day after the generation day, or after the days the case's
        records hold where those are later (a pickup follows the last fill), with "next"
        or the date in the line where it is not the coming one (`weekday_said`)."""
        today = reference_day()
        since = self._since()
        day = next_weekday(weekday, max(today, since) if since is not None else today)
        return day, weekday_said(line, day, today)

    def on_weekdays(self, opening: str) -> str:
        """Move the drawn days ahead to the weekdays `opening` names ("Tuesday, back
        Wednesday night": a span's start or a lone day ahead to the coming Tuesday
        (`named_day`), a span's end to the first Wednesday after the start): a day the user
        gives must agree with the weekday they opened with, on the day the case is written.
        Where the opening names one weekday only, a span's end keeps its distance from the
        start. Returns the opening as the user says it ("next Friday" where the day is not
        the coming one)."""
        today = reference_day()
        said = set(opening.lower().replace(",", " ").replace(".", " ").replace("!", " ").split())
        relative = next((w for w in _RELATIVE_DAYS if w in said), None)
        if relative is not None:  # "move my 3pm to tomorrow": the day is that word
            self._say_relative(relative, today)
            return opening
        named = weekdays_in(opening)
        if not named:
            return opening
        first, as_said = self.named_day(named[0], opening)
        moved: dt.date | None = None
        shift = dt.timedelta(0)
        for n, fact in enumerate(self.sheet.facts):
            drawn = self._drawn_days.get(fact.value)
            if drawn is None or drawn[1] <= today:
                continue
            spec, day = drawn
            if span_role(spec) == "end" and len(named) > 1:
                floor = moved if moved else first
                new = next_weekday(named[-1], floor)
            elif span_role(spec) == "end" or moved is not None:
                new = day + shift
            else:
                new = first
                shift = new - day
            moved = new
            fmt = date_format(spec.description)
            was, now = ((d.strftime(fmt) if fmt else spoken_date(d)) for d in (day, new))
            self.sheet.facts[n] = replace(fact, value=fact.value.replace(was, now, 1))
        return as_said if moved is not None else opening

    def _say_relative(self, word: str, today: dt.date) -> None:
        """The first drawn day ahead (not a span's end) said as the opening says it
        ("tomorrow 09:30" for 2026-12-08 09:30): a date fixed on the day the case was
        written contradicts "tomorrow" on every other day it runs."""
        for n, fact in enumerate(self.sheet.facts):
            drawn = self._drawn_days.get(fact.value)
            if drawn is None or drawn[1] <= today or span_role(drawn[0]) == "end":
                continue
            spec, day = drawn
            fmt = date_format(spec.description)
            was = day.strftime(fmt) if fmt else spoken_date(day)
            self.sheet.facts[n] = replace(fact, value=fact.value.replace(was, word, 1))
            return

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


__all__ = [
    "Fact",
    "FactSheet",
    "SheetBuilder",
    "described_shape",
    "names_an_id",
    "spoken_value",
]
