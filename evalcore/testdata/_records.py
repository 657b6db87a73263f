"""Records a project ships (`data/*.json`, `data/*.csv`): the ids and names a real case uses.

A case about a policy should name a policy number that exists in `data/policies.json`, with
that policy's holder as the persona. `load_records(root)` reads every JSON file under the
project's `data/` folder (a list of objects, an object holding one such list, or an object of
objects keyed by id) and every CSV file there (a header row, then one record per row);
`DataRecords.match(field)` finds the collection and key a field's values come from, by the
field's words against the file name and the record keys.
"""

from __future__ import annotations

import csv
import functools
import io
import json
import operator
import random
import re
from collections.abc import Callable, Hashable, Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

from .._readbytes import RefusedFile, read_limited
from .._sha256 import sha256
from ..lexicon.en.field_name_words import AWAITED as _AWAITED
from ..lexicon.en.field_name_words import HAD_STATES as _HAD
from ..lexicon.en.field_name_words import ROLE_PREFIXES as ROLE_PREFIXES
from ..lexicon.en.record_states import INACTIVE
from ._slots import upcoming

_NAME_KEYS = ("full_name", "holder_name", "customer_name", "name", "holder", "owner")
_MAX_BYTES = 2_000_000
_INACTIVE = INACTIVE
T = TypeVar("T")
#: Record keys whose false value says the record is out of standing (`active: false`).
_STANDING_FLAGS = frozenset(
    p + w
    for p in ("", "is_")
    for w in ("active", "enabled", "valid", "current", "in_good_standing")
)


def in_standing(record: Mapping[str, Any]) -> bool:
    """Whether a record is in good standing: no value says it is lapsed, closed, inactive …
    and no flag saying it is active, enabled or valid is false. A sign-in's lookup turns a
    record out of standing away, so a case's caller is one in standing where any is."""
    for key, value in record.items():
        if value is False and key.lower() in _STANDING_FLAGS:
            return False
        if isinstance(value, str) and _INACTIVE.fullmatch(value.lower()):
            return False
    return True


@dataclass(frozen=True)
class Collection:
    """One data file's records."""

    name: str
    """File stem (`policies`)."""
    records: tuple[dict[str, Any], ...]
    where: str = ""
    """The file, project-relative (`data/staging/customers.json`)."""

    @property
    def singular(self) -> str:
        stem = self.name.lower()
        if stem.endswith("ies"):
            return stem[:-3] + "y"
        return stem[:-1] if stem.endswith("s") else stem


@dataclass
class DataRecords:
    collections: list[Collection] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    """Files that could not be read (`data/x.json: not JSON (line 3)`): reported, skipped."""
    readers: dict[str, frozenset[str]] = field(default_factory=dict)
    """Collection name -> the skills whose tools read the file; a collection not listed is
    open to every skill (`evalcore.definitions.skill_model.data_readers`)."""
    identity: dict[str, str] = field(default_factory=dict)
    """Record key -> the seeded caller's value (`customer_id: "123"` from project memory's
    `initial_value`): a record carrying the key is the caller's only with that value, and a
    case draws the caller's own records (a router of customer 123, not of customer 124)."""
    _held: set[str] | None = field(default=None, repr=False, compare=False)
    _derived: dict[Hashable, tuple[tuple[object, ...], Any]] = field(
        default_factory=dict, repr=False, compare=False
    )

    def derived(self, key: Hashable, pinned: tuple[object, ...], build: Callable[[], T]) -> T:
        """`build()` once per `key` for these files: what is derived from them and from the
        objects `pinned` (which `key` names by identity: a caller's record) is asked again
        for every case, and neither changes once read. The entry keeps `pinned` and the
        files, so it answers only while the ids in `key` are still those objects'; a copy
        made by `dataclasses.replace` (another `identity`, the same files) shares it."""
        pinned = (self.collections, *pinned)
        entry = self._derived.get(key)
        kept = entry[0] if entry is not None else ()
        if entry is not None and len(kept) == len(pinned) and all(map(operator.is_, kept, pinned)):
            return entry[1]  # type: ignore[no-any-return]
        value = build()
        self._derived[key] = (pinned, value)
        return value

    def defines(self, value: str) -> bool:
        """Whether a record of the project's data files holds `value` (`R-30418`, `mchen`):
        an id of the project's own set, which a case never turns into another."""
        if self._held is None:
            self._held = {
                str(v).strip().lower()
                for c in self.collections
                for r in c.records
                for v in r.values()
                if _scalar(v)
            }
        return value.strip().lower() in self._held

    def holds_shape(self, shape: re.Pattern[str]) -> bool:
        """Whether a value of the project's data files has `shape` (`OPN-\\d{5}`)."""
        self.defines("")  # the values, read once
        return any(shape.fullmatch(v.upper()) for v in self._held or ())

    def owned(
        self, records: tuple[dict[str, Any], ...], linked: dict[str, str] | None = None
    ) -> list[dict[str, Any]]:
        """The caller's records of `records` (see `identity`, and `linked`: the ids of the
        records the case already holds, `employee_id: E20931` of its caller's record, so a
        shift drawn is that person's); all of them when neither names any (no key of them
        in the records, or no record of that value)."""
        seeded = {**(linked or {}), **self.identity}
        keys = [k for k in seeded if any(k in r for r in records)]
        if not keys:
            return self._owned_through(records, seeded) or list(records)
        mine = [r for r in records if all(_same(r[k], seeded[k]) for k in keys if k in r)]
        return mine or list(records)

    def _owned_through(
        self, records: tuple[dict[str, Any], ...], seeded: dict[str, str]
    ) -> list[dict[str, Any]]:
        """The caller's records of a file that carries none of the caller's ids, through a
        file that does: a claim is the caller's when its `policy_number` is one of the
        caller's policies' (a key the other file holds one record per value of). Empty
        where no such file links them."""
        for collection in self.collections:
            others = collection.records
            if not others or any(r is o for r in records for o in others):
                continue
            keys = [k for k in seeded if any(k in o for o in others)]
            if not keys:
                continue
            mine = [o for o in others if all(_same(o[k], seeded[k]) for k in keys if k in o)]
            for key in sorted({k for o in others for k in o if k not in keys}):
                values = [str(o[key]) for o in others if key in o and _scalar(o[key])]
                if len(values) < len(others) or len(set(values)) < len(values):
                    continue  # no key that names one record of the other file
                held = {str(o[key]).strip().lower() for o in mine if key in o}
                found = [r for r in records if key in r and str(r[key]).strip().lower() in held]
                if found:
                    return found
        return []

    def none_owned(
        self, records: tuple[dict[str, Any], ...], linked: dict[str, str] | None = None
    ) -> str | None:
        """`key value` of the caller's ids `owned` follows where `records` carry the key
        but none holds the value (`owned` then falls back to every record), else None."""
        seeded = {**(linked or {}), **self.identity}
        keys = [k for k in seeded if any(k in r for r in records)]
        if not keys or any(all(_same(r[k], seeded[k]) for k in keys if k in r) for r in records):
            return None
        return ", ".join(f"{k} {seeded[k]}" for k in keys)

    def owns_all(self, person: dict[str, Any], skill: str) -> bool:
        """Whether `person` (a record of one file) holds a record of their own in each
        other file `skill`'s tools read that carries one of their ids (`employee_id` in
        shifts): a case of that skill about them has their own shift, prescription or
        order to name. A file no reader is known for asks nothing. Of a file of slots that
        holds some still to come on the run day, their own must be one of those."""
        ids = {k: str(v) for k, v in person.items() if k.lower().endswith("_id") and _scalar(v)}
        for collection in self.collections:
            if skill not in self.readers.get(collection.name, ()):
                continue
            if any(r is person for r in collection.records):
                continue
            keys = [k for k in ids if any(k in r for r in collection.records)]
            # where the file holds slots still to come, one of theirs (a shift to swap)
            pool = upcoming(collection.records) or list(collection.records)
            if keys and not any(all(_same(r[k], ids[k]) for k in keys if k in r) for r in pool):
                return False
        return True

    def match(
        self,
        field_name: str,
        drawn: frozenset[str] = frozenset(),
        narrative_of: str | None = None,
    ) -> tuple[Collection, str] | None:
        """The collection and record key `field_name` takes its values from, if any; on a
        tie, a collection in `drawn` (this case already uses one of its records) wins.

        A narrative field of a skill (`narrative_of`) takes none from a collection only
        other skills' tools read, unless its name says the collection's noun
        (`booking_reason` of the bookings): an id names the same thing in any skill, a
        reason is one conversation's own. Found once per question for these files and
        readers (`derived`): every case asks it of every field it draws."""
        key = ("match", field_name, drawn, narrative_of)
        return self.derived(
            key, (self.readers,), lambda: self._match(field_name, drawn, narrative_of)
        )

    def _match(
        self, field_name: str, drawn: frozenset[str], narrative_of: str | None
    ) -> tuple[Collection, str] | None:
        words = [w for w in field_name.lower().split("_") if w]
        best: tuple[tuple[int, bool], Collection, str] | None = None
        for collection in self.collections:
            if not self._open_to(collection, narrative_of, words):
                continue
            keys = {k for r in collection.records[:20] for k, v in r.items() if _scalar(v)}
            for key in sorted(keys):
                score = (_score(words, key.lower(), collection.singular), collection.name in drawn)
                if score[0] and (best is None or score > best[0]):
                    best = (score, collection, key)
        return (best[1], best[2]) if best else None

    def _open_to(self, collection: Collection, skill: str | None, words: list[str]) -> bool:
        owners = self.readers.get(collection.name)
        if skill is None or owners is None or skill in owners:
            return True
        return collection.singular in words or collection.name.lower() in words

    def pick(
        self,
        collection: Collection,
        rng: random.Random,
        prefer: frozenset[str] = frozenset(),
        *,
        slot: int | None = None,
        require: dict[str, frozenset[str]] | None = None,
        linked: dict[str, str] | None = None,
        referenced: frozenset[str] = frozenset(),
        holds: Mapping[str, Callable[[Any], bool]] | None = None,
    ) -> dict[str, Any]:
        """A record: one holding a value in `prefer` (the case's enum values) first, and one
        in good standing (not lapsed, closed, expired …) before one that is not.

        With `require` (field -> values a tool of the case works only with), a record
        holding them is drawn while the file has one.

        With `slot` (the case's place among the suite's cases of one skill), cases take the
        pool's records in turn from a start fixed by the collection, so two cases of a suite
        share a record only when the pool is smaller than the suite; without it, at random.

        With `linked` (ids of the records the case holds), the records that carry one of
        those ids with the same value (see `owned`); with `referenced` (the values of the
        records the case holds), a record whose own id is one of them first (the held
        patient's `home_store: ST-022` picks store ST-022).

        With `holds` (field -> a test its value passes on the case's path: a gate's side,
        `refills_left != 0` where the case submits the refill), a record that carries the
        field is drawn only among those that pass it.

        A slot (a shift, an appointment: `_slots`) dated before the run day is drawn only
        where the pool holds no other: the user acts on it as something still to come."""

        def rank(record: dict[str, Any]) -> int:
            values = [str(v) for v in record.values() if _scalar(v)]
            fit = status_fit(record, prefer)
            fits = any(v in prefer for v in values) or fit > 0
            return 2 * fits - 2 * (fit < 0) + in_standing(record)

        own = self.owned(collection.records, linked)
        # the values a tool of the case works only with (`claim_status: 2` for a booking)
        needed = require or {}
        fit = [r for r in own if all(str(r[k]) in v for k, v in needed.items() if k in r)]
        own = fit or own
        tests = holds or {}
        passing = [r for r in own if all(test(r[k]) for k, test in tests.items() if k in r)]
        own = passing or own
        # a slot the user acts on is one still to come: none dated before the run day
        own = upcoming(own) or own
        named = [r for r in own if any(str(r[k]) in referenced for k in _id_keys(r))]
        own = named or own
        best = max(rank(r) for r in own)
        pool = [r for r in own if rank(r) == best]
        if slot is None:
            return pool[rng.randrange(len(pool))]
        start = int(sha256(collection.name.encode()).hexdigest()[:8], 16)
        return pool[(start + slot) % len(pool)]


#: Statuses that say a thing reached the person it was for (a bag `delivered`, a flight
#: `landed`): what a branch about the state of a thing they have needs, and what one about
#: finding or sending a thing they are still waiting for rules out.
_REACHED = frozenset({"delivered", "received", "collected", "picked_up", "arrived", "landed"})


def _statuses(record: Mapping[str, Any]) -> list[str]:
    """The values of `record`'s status keys (`status`, `bag_state`), lower case."""
    return [v.strip().lower() for k, v in record.items() if isinstance(v, str) and status_key(k)]


#: Words of a key that says what happened to a thing (a flight's `status`): the values a
#: branch is told by. What a thing is (a work order's `category: plumbing`) is not: a caller
#: with an open plumbing order is no better for a new plumbing request, rather the reverse.
_STATUS = frozenset({"status", "state"})


@functools.lru_cache(maxsize=4096)
def status_key(key: str) -> bool:
    """A key that says what happened to a thing (`status`, `bag_state`), kept by key: every
    caller of every case is scored by their records' statuses."""
    return bool(_STATUS & set(re.split(r"[_\W]+", key.lower())))


def status_fit(record: Mapping[str, Any], values: Iterable[str]) -> int:
    """How a status of `record` fits the case's `values` (its branch): 2 where it is a word
    of one of them (`missing` for `report_missing`), 1 where it is the state their words
    presuppose (`delivered` for `report_damaged`: a damage report is about a bag that
    arrived; not `delivered` for `track`); -1 where it is the other state (a bag still
    `checked` for a damage report, a `delivered` one to track); 0 where the record has no
    status or the values say nothing of one."""
    states = _statuses(record)
    if not states:
        return 0
    words = {w for v in values for w in re.split(r"[_\W]+", str(v).lower()) if len(w) > 3}
    if any(s in words for s in states):
        return 2
    reached = any(s in _REACHED for s in states)
    if words & _HAD:
        return 1 if reached else -1
    if words & _AWAITED:
        return -1 if reached else 1
    return 0


def status_named(record: Mapping[str, Any], values: Iterable[str]) -> bool:
    """Whether a status of `record` fits the case's values (`status_fit`): of a booking's
    two bags, the missing one is the one a missing-bag report is about, never the one
    delivered beside it."""
    return status_fit(record, values) > 0


def by_status(records: DataRecords, items: list[str], values: Iterable[str]) -> list[str]:
    """`items` (the bag tags a booking lists), those whose own record in the data (the bag's
    row of the tag file) has a status that fits the case's `values` first, those whose
    status leads elsewhere last (`status_fit`: a delivered bag is not the one to track),
    else in their order."""
    wanted = list(values)

    def fit(item: str) -> int:
        fits = [
            status_fit(r, wanted)
            for c in records.collections
            for r in c.records
            if any(isinstance(v, str) and v == item for v in r.values())
        ]
        return max(fits, default=0)

    return sorted(items, key=lambda item: -fit(item))


def _id_keys(record: dict[str, Any]) -> list[str]:
    """The keys of `record` that hold an id (`store_id`, `id`)."""
    return [
        k
        for k, v in record.items()
        if _scalar(v) and (k.lower() == "id" or k.lower().endswith("_id"))
    ]


def _same(value: Any, seeded: str) -> bool:
    """A record's value is the seeded one (`123` and `"123"` alike)."""
    return str(value).strip().lower() == seeded.strip().lower()


def _scalar(value: Any) -> bool:
    return isinstance(value, str | int | float) and not isinstance(value, bool)


def role_prefix(field_name: str, key: str) -> str | None:
    """The prefix of a field named as one role of a record key (`from_station` of
    `station` -> `from`), else None."""
    words = [w for w in field_name.lower().split("_") if w]
    if len(words) == 2 and words[0] in ROLE_PREFIXES and words[1] == key.lower():
        return words[0]
    return None


def _score(words: list[str], key: str, singular: str) -> int:
    """How well a field (`policy_number`) names a record key (`policy_number`, `number` in
    policies): 4 exact and the file's noun in the field, 3 exact, 2 key plus the file's noun,
    1 the key plus generic words (`zip_code` ↔ `zip`) or a key of several words after a
    qualifier (`selected_device_id` ↔ `device_id`); 2 also the file's noun with another id
    word (`claim_number` ↔ `claim_id` in claims); 0 none."""
    joined = "_".join(words)
    key_words = re.split(r"[_\W]+|(?<=[a-z])(?=[A-Z])", key)
    if joined == key or joined == re.sub(r"(?<=[a-z])(?=[A-Z])", "_", key).lower():
        return 4 if singular in words else 3
    generic = {"code", "number", "id", "no", "ref", "reference", "value"}
    if key in words and set(words) - {key} <= generic:
        return 1
    rest = [w for w in words if w != singular]
    if singular in words and rest and "_".join(rest) in (key, *key_words):
        return 2
    if role_prefix(joined, key):
        return 1
    if "_" in key and joined.endswith("_" + key.lower()):
        return 1  # the key qualified by which one: `selected_device_id` of `device_id`
    ids = generic | {"num"}
    noun_id = [w.lower() for w in key_words] == [singular, key_words[-1].lower()]
    if (
        noun_id
        and len(words) == 2
        and words[0] == singular
        and {words[1], key_words[-1].lower()} <= ids
    ):
        return 2  # the file's noun and another id word: `claim_number` of claims' `claim_id`
    if singular in words and key in ("id", "number", "ref", "reference", "code"):
        return 2 if set(rest) & {"id", "number", "ref", "reference", "code", "no"} else 0
    return 0


def record_name(record: dict[str, Any]) -> str | None:
    """The person a record belongs to (`holder_name`, `name`, first + last name)."""
    for key in _NAME_KEYS:
        value = record.get(key)
        if isinstance(value, str) and len(value.split()) >= 2:
            return value
    first, last = record.get("first_name"), record.get("last_name")
    if isinstance(first, str) and isinstance(last, str):
        return f"{first} {last}"
    return None


def named_by(records: DataRecords, thing: str, value: str) -> str | None:
    """The name of the `thing` whose id is `value` (`store`, `ST-022` -> `Meadow Pharmacy
    Lawrenceville` from `data/stores.csv`): a place a person names by its name, not by the
    project's code for it. None where no `<thing>s` record holds that id under
    `<thing>_id` or the record has no name."""
    key = f"{thing}_id"
    for collection in records.collections:
        if collection.singular != thing:
            continue
        for record in collection.records:
            name = record.get("name")
            if str(record.get(key, "")).strip() == value.strip() and isinstance(name, str):
                return name
    return None


def sheet_lines(
    records: DataRecords, keyed: Mapping[str, Any], counted: Iterable[str]
) -> list[tuple[str, str]] | None:
    """(key, name) of each line of the sheet whose keys `keyed` uses (`{"SYR-VAN-750": 6}`:
    the `sku` column of `data/par_levels.csv`, named by its `item` column), in the file's
    order, without the lines another field already counts (`counted`: their names' words,
    `whole milk gallons`; each takes the line its words name most). None where no file
    holds every key of `keyed` in one column beside a name column."""
    if not keyed:
        return None
    for collection in records.collections:
        rows = collection.records
        columns = list(rows[0]) if rows else []
        key = next(
            (c for c in columns if all(any(str(r.get(c)) == k for r in rows) for k in keyed)), None
        )
        name = next((c for c in ("item", "name", "label", "title") if c in columns), None)
        if key is None or name is None:
            continue
        lines = list(dict.fromkeys((str(r[key]), str(r[name])) for r in rows))
        for words in counted:
            wanted = set(words.lower().split())
            scored = [(len(wanted & set(n.lower().split())), -i) for i, (_, n) in enumerate(lines)]
            best = max(scored, default=(0, 0))  # the first of equals: house beans, not decaf
            if best[0] > 0:
                lines.pop(-best[1])
        return lines
    return None


def _collections_in(data: Any) -> list[dict[str, Any]] | None:
    if isinstance(data, list) and data and all(isinstance(r, dict) for r in data):
        return data
    if isinstance(data, dict):
        lists = [v for v in data.values() if isinstance(v, list) and v]
        if len(lists) == 1 and all(isinstance(r, dict) for r in lists[0]):
            return lists[0]
        if data and all(isinstance(v, dict) for v in data.values()):
            return [{"id": k, **v} for k, v in data.items()]
    return None


def _csv_rows(text: str) -> list[dict[str, Any]]:
    """A CSV file's rows as records keyed by its header (cells a row lacks are left out)."""
    reader = csv.DictReader(io.StringIO(text))
    return [{k: v for k, v in row.items() if k and v is not None} for row in reader]


def load_records(root: Path) -> DataRecords:
    """Every JSON or CSV record collection under `root/data` (see module doc)."""
    out = DataRecords()
    folder = root / "data"
    if not folder.is_dir():
        return out
    paths = [p for p in folder.rglob("*") if p.suffix in (".json", ".csv") and p.is_file()]
    for path in sorted(paths):
        where = path.relative_to(root).as_posix()
        try:
            try:
                text = read_limited(path, _MAX_BYTES).decode("utf-8")
            except RefusedFile as exc:
                out.problems.append(f"{where}: not read ({exc})")
                continue
            data = _csv_rows(text) if path.suffix == ".csv" else json.loads(text)
        except (OSError, UnicodeDecodeError) as exc:
            out.problems.append(f"{where}: cannot be read ({exc})")
            continue
        except json.JSONDecodeError as exc:
            out.problems.append(f"{where}: not JSON (line {exc.lineno}: {exc.msg})")
            continue
        except csv.Error as exc:
            out.problems.append(f"{where}: not CSV ({exc})")
            continue
        records = _collections_in(data)
        if records:
            out.collections.append(Collection(path.stem, tuple(records), where))
    return out


__all__ = [
    "Collection",
    "DataRecords",
    "in_standing",
    "load_records",
    "named_by",
    "record_name",
    "sheet_lines",
]
