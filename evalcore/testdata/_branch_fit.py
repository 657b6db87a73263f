"""Whether a caller's records fit the branch a case plays.

A case about a cancelled flight seeds a passenger whose booking's flight is cancelled in the
project's flight file, not one whose flight is delayed: the agent checks the status and
follows what it reads, so a caller whose records say another branch's value leads a correct
agent down that branch. The caller's records are their own record (and the record they are
nested in, with its nested lists: a booking's segments and bags) and the records of other
files that carry one of the ids those hold (a segment's flight number in the flight file).

Two things put a caller out of a branch altogether: a value of their records the branch's
prose rules out ("basic fares cannot be changed" for a booking whose `fare_family` is
`basic`), and an empty list of the thing the skill acts on (`bags: []` for a baggage case).
A request to switch on what the caller's record already has on (`autopay: true` for "turn
on autopay") asks for nothing, so it does the same, and so does a date of their record the
prose says must reach some months past a day the case gives ("passport_expiry ... must be
valid six months past the return date") where it falls short of that many months after the
generation day: the case's days come after it, so the check fails whatever day is said.
"""

from __future__ import annotations

import datetime as dt
import functools
import re
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from ..lexicon.en.branch_rules import RULED_OUT, SWITCH
from ..lexicon.en.spelled_counts import MONTHS_PAST, NUMBER_WORDS
from ._callers import Caller
from ._records import Collection, DataRecords, status_fit, status_key
from ._values import reference_day

_ISO_DAY = re.compile(r"^\d{4}-\d{2}-\d{2}")
#: "basic fares cannot be changed", "gift cards may not be refunded": the words before it.
_RULED_OUT = RULED_OUT
#: "turn on autopay", "switch off paperless": the request's verb and the state it asks for.
_SWITCH = SWITCH

#: "must be valid six months past the return date": the months a date must reach beyond another.
_MONTHS_PAST = MONTHS_PAST


@dataclass(frozen=True)
class Held:
    """One value the caller's records hold, and where."""

    value: str
    key: str
    record: Mapping[str, Any]
    collection: str
    """The file's name (`flights`), or "" for the caller's own record."""
    by_item: bool = False
    """Linked by an item of a list of the caller's records (a booking's segment's flight),
    not by an id of the record itself (their policyholder id)."""


def _scalar(value: Any) -> bool:
    return isinstance(value, str | int | float) and not isinstance(value, bool)


def _id_like(key: str, value: Any) -> bool:
    """A value that names one thing (`SK1182`, `R-30418`, a `*_id`), not a state or a day:
    the values another file's records are linked to the caller's by."""
    if not _scalar(value):
        return False
    text = str(value).strip()
    if key.lower() == "id" or key.lower().endswith("_id"):
        return bool(text)
    has_digit = any(c.isdigit() for c in text)
    has_letter = any(c.isalpha() for c in text)
    return has_digit and has_letter and len(text) >= 4 and not _ISO_DAY.match(text)


def _nested(record: Mapping[str, Any]) -> Iterator[tuple[str, Any]]:
    """Every (key, scalar) of `record` and of the dicts and scalars of its lists."""
    for k, v in record.items():
        if isinstance(v, Mapping):
            yield from _nested(v)
        elif isinstance(v, list):
            for item in v:
                if isinstance(item, Mapping):
                    yield from _nested(item)
                elif _scalar(item):
                    yield k, item
        elif _scalar(v):
            yield k, v


def own_records(caller: Caller) -> list[Mapping[str, Any]]:
    """The caller's own record and the record they are nested in (their booking)."""
    return [r for r in (caller.record, caller.within) if r is not None]


def held_values(records: DataRecords, caller: Caller) -> list[Held]:
    """The values of the caller's own records and of the other files' records that carry
    one of their ids (one hop: a segment's flight -> that flight's row). Found once per
    caller's records and files (`DataRecords.derived`): a case scores every caller by them,
    and every file is scanned for each."""
    return list(_kept(records, caller))


def _kept(records: DataRecords, caller: Caller) -> tuple[Held, ...]:
    """`held_values`, kept with the records (not to be changed)."""
    key = ("held_values", id(caller.record), id(caller.within))
    pinned = (caller.record, caller.within)
    return records.derived(key, pinned, lambda: _held_values(records, caller))


def _kept_statuses(records: DataRecords, caller: Caller) -> tuple[Held, ...]:
    """The caller's held values of a status key (`status`, `state`), kept likewise: every
    case's branch is weighed against them."""
    key = ("held_statuses", id(caller.record), id(caller.within))
    pinned = (caller.record, caller.within)

    def build() -> tuple[Held, ...]:
        return tuple(h for h in _kept(records, caller) if status_key(h.key))

    return records.derived(key, pinned, build)


def _held_values(records: DataRecords, caller: Caller) -> tuple[Held, ...]:
    own = own_records(caller)
    out = [Held(str(v), k, r, "") for r in own for k, v in _nested(r)]
    ids = {str(v).strip().lower() for r in own for k, v in _nested(r) if _id_like(k, v)}
    top = {str(v).strip().lower() for r in own for k, v in r.items() if _id_like(k, v)}
    mine = _own_collection(records, own)
    for collection in records.collections:
        if collection is mine:
            continue
        for record in collection.records:
            links = {str(v).strip().lower() for v in record.values() if _scalar(v)} & ids
            if not links:
                continue
            name, by_item = collection.name, not links & top
            out += [Held(str(v), k, record, name, by_item) for k, v in record.items() if _scalar(v)]
    return tuple(out)


def _own_collection(records: DataRecords, own: list[Mapping[str, Any]]) -> Collection | None:
    """The file the caller's record is in: its other records are other people's."""
    for collection in records.collections:
        if any(r is o for r in collection.records for o in own):
            return collection
    return None


def branch_fit(
    records: DataRecords, caller: Caller, wanted: Iterable[str], others: Iterable[str]
) -> int:
    """How well the caller's records fit the case's branch: one for each of the branch's
    values (`cancelled`) a status of their records holds; where none does, less one for
    each value of the same choices that another branch takes (`delayed`): that caller's
    flight status leads the agent elsewhere (one with a cancelled and a delayed flight still
    has what the branch needs); where none holds a choice's value, two if a status of
    theirs is a word of the branch's value, one if it is the state the value presupposes,
    less one if one is in the other and none fits (`status_fit`: a damage report wants a
    bag that arrived)."""
    statuses = _kept_statuses(records, caller)
    held = {h.value.strip().lower() for h in statuses}
    want = {str(w).strip().lower() for w in wanted}
    other = {str(o).strip().lower() for o in others} - want
    named = len(held & want) or -len(held & other)
    if named:
        return named
    # no status is a choice's value: whether a status of theirs is a word of the branch's
    # value (`missing`) or the state it presupposes (a delivered bag for `report_damaged`)
    fits = [status_fit(h.record, want) for h in statuses]
    best = max(fits, default=0)
    return best if best > 0 else -1 if -1 in fits else 0


#: What makes a word the record's "can be done" of a branch's value (`refundable` for
#: `refund`), and what denies it (`nonrefundable`, `non-refundable`, `not_refundable`).
_ABLE = ("able", "ible")
_DENIED = ("non", "non-", "non_", "not_", "not-", "un")


def allowed_by(records: DataRecords, caller: Caller, wanted: Iterable[str]) -> int:
    """Whether the caller's records allow what the branch asks for: 1 where a value of
    theirs is the branch's value made "can be done" (`ticket_type: refundable` for a
    `refund` hand-off), -1 where one denies it (`nonrefundable`: a refund the fare rules
    out leads a correct agent to say no, not to the hand-off the case plays), else 0."""
    forms = {
        w + end
        for v in wanted
        for w in re.split(r"[_\W]+", str(v).lower())
        if len(w) > 3
        for end in _ABLE
    }
    if not forms:
        return 0
    held = {h.value.strip().lower() for h in _kept(records, caller)}
    if any(d + f in held for d in _DENIED for f in forms):
        return -1
    return 1 if forms & held else 0


def unaffected(
    records: DataRecords, caller: Caller, wanted: Iterable[str], others: Iterable[str]
) -> bool:
    """Whether a status of the caller's records is none of the choices' values (an
    `on_time` flight beside a `delayed` one): where no caller holds the branch's value (a
    voluntary change), one with such a thing still has what the branch acts on, while one
    whose every status is another branch's (their only flight is cancelled) leads a
    correct agent down that branch."""
    held = {h.value.strip().lower() for h in _kept_statuses(records, caller)}
    choices = {str(v).strip().lower() for v in (*wanted, *others)}
    return bool(held - choices)


def branch_facts(
    records: DataRecords, caller: Caller, wanted: Iterable[str]
) -> list[tuple[str, str]]:
    """(label, value) for each record of another file linked to the caller by an item of
    their records that holds one of the branch's values (`your flight`, `SK0931, cancelled
    (weather)`): the fact the branch rests on, which the caller knows and says when asked.
    Only a status (`status`, `state`: what happened to it) is news the case has to tell;
    a record of their own (their policy, found by their id) the case already names, and
    what a thing is (a claim's `type`) says nothing of what happened to it."""
    want = {str(w).strip().lower() for w in wanted}
    out: list[tuple[str, str]] = []
    seen: list[Mapping[str, Any]] = []
    for held in _kept(records, caller):
        if not held.by_item or not status_key(held.key):
            continue
        if held.value.strip().lower() not in want:
            continue
        if any(held.record is s for s in seen):
            continue
        seen.append(held.record)
        name = next(
            (str(v) for k, v in held.record.items() if _id_like(k, v) and k != held.key), None
        )
        rest = [
            f"{k.replace('_', ' ')} {v}"
            for k, v in held.record.items()
            if _scalar(v) and k != held.key and str(v) != name
        ]
        noun = Collection(held.collection, ()).singular.replace("_", " ")
        said = ", ".join(p for p in (name, held.value) if p)
        out.append((f"your {noun}", f"{said} ({'; '.join(rest)})" if rest else said))
    return out


def ruled_out(caller: Caller, prose: Iterable[str]) -> str | None:
    """The value of the caller's own records that a sentence of the branch's prose rules
    out ("basic fares cannot be changed" for `fare_family: basic`: the word names the
    value and the next one the key), as `fare_family basic`, else None."""
    ruling = [pair for text in prose for pair in _ruling_words(text)]
    if not ruling:
        return None
    own = [
        (k, str(v), re.split(r"[_\W]+", k.lower()))
        for r in own_records(caller)
        for k, v in r.items()
        if _scalar(v)
    ]
    for word, following in ruling:
        for key, value, key_words in own:
            if value.lower() == word and any(f in key_words for f in following):
                return f"{key} {value}"
    return None


@functools.lru_cache(maxsize=4096)
def _ruling_words(text: str) -> tuple[tuple[str, tuple[str, ...]], ...]:
    """(word, the words after it with a plural's `s` dropped) for each word of each phrase
    of `text` that rules something out, in order: the same sentences are read for every
    caller a case scores (`ruled_out`)."""
    out: list[tuple[str, tuple[str, ...]]] = []
    for match in _RULED_OUT.finditer(" ".join(text.split())):
        words = [w.lower() for w in re.findall(r"[\w-]+", match["what"])]
        for index, word in enumerate(words):
            out.append((word, tuple(w.rstrip("s") for w in words[index + 1 :])))
    return tuple(out)


def acted_on(skill_id: str, fields: Iterable[str]) -> set[str]:
    """The words of a skill's id and field names: the things it acts on (`bag` of
    `bag_tag`), which `lacks` looks for among a caller's empty lists."""
    return {w for n in [skill_id, *fields] for w in n.lower().split("_") if w}


def lacks(caller: Caller, needed: Iterable[str]) -> str | None:
    """The list of the caller's own records that is empty where the skill acts on one of
    its items (`bags` where the skill's fields speak of a `bag`), else None."""
    words = {w.lower() for w in needed}
    for record in own_records(caller):
        for key, value in record.items():
            singular = key.lower().removesuffix("s")
            if isinstance(value, list) and not value and singular in words:
                return key
    return None


def story_fit(
    records: DataRecords, caller: Caller, story: Iterable[str], needed: Iterable[str]
) -> int:
    """How the caller's things the skill acts on (records of a file named by a word of
    `needed`: `bag_tags` for a skill about a `bag`) fit what the user says of them
    (`status_fit` of the story's words: "the handle on my bag is broken" presupposes a bag
    that arrived, and one still `checked` at the departure airport cannot have): the best
    fit among them, 0 where the caller holds none with a status."""
    words = {w.lower() for w in needed}
    told = list(story)
    fits: list[int] = []
    seen: list[Mapping[str, Any]] = []
    for held in _kept(records, caller):
        named = {w.removesuffix("s") for w in held.collection.lower().split("_") if w}
        if not named & words or any(held.record is r for r in seen):
            continue
        seen.append(held.record)
        fits.append(status_fit(held.record, told))
    return max(fits, default=0)


def total(records: DataRecords, caller: Caller, key: str) -> float | None:
    """The sum of `key` over the records of other files linked to the caller (their ledger
    rows' `amount`), None where none holds a number there."""
    rows: list[Mapping[str, Any]] = []
    for held in _kept(records, caller):
        number = isinstance(held.record.get(key), int | float)
        if held.collection and number and not any(held.record is r for r in rows):
            rows.append(held.record)
    if not rows:
        return None
    return round(sum(float(r[key]) for r in rows), 2)


def moot(caller: Caller, requests: Iterable[str]) -> str | None:
    """The flag of the caller's own record that a request asks to switch to the state it
    already holds ("turn on autopay" with `autopay: true`), else None."""
    for text in requests:
        for match in _SWITCH.finditer(text):
            wanted = match["on"] is not None
            what = match["what"].lower()
            for record in own_records(caller):
                for key, value in record.items():
                    if isinstance(value, bool) and key.lower() == what and value is wanted:
                        return key
    return None


def _plus_months(day: dt.date, months: int) -> dt.date:
    """`day` moved on `months` calendar months (the 31st becomes the month's last day)."""
    year, month = divmod(day.month - 1 + months, 12)
    month += 1
    year += day.year
    for last in (31, 30, 29, 28):
        try:
            return dt.date(year, month, min(day.day, last))
        except ValueError:
            continue
    raise AssertionError("unreachable")


def expires_short(caller: Caller, prose: Iterable[str], today: dt.date | None = None) -> str | None:
    """The date of the caller's own record that a sentence of the branch's prose names
    and says must be valid some months past a day the case gives ("Check passport_expiry
    ...: it must be valid six months past the return date"), where it comes before that
    many months after `today` (the generation day by default: the case's days are after
    it, so the check fails whatever day the case says), as
    `passport_expiry 2026-12-20`, else None."""
    today = today or reference_day()
    dates: list[tuple[str, dt.date]] = []
    for record in own_records(caller):
        for key, value in record.items():
            if isinstance(value, str) and _ISO_DAY.match(value.strip()):
                try:
                    dates.append((key, dt.date.fromisoformat(value.strip()[:10])))
                except ValueError:
                    continue
    for text in prose:
        found = _months_past(text)
        if found is None:
            continue
        words, months = found
        for key, day in dates:
            named = key.lower() in words or key.lower().replace("_", " ") in words
            if named and day < _plus_months(today, months):
                return f"{key} {day.isoformat()}"
    return None


@functools.lru_cache(maxsize=4096)
def _months_past(text: str) -> tuple[str, int] | None:
    """(`text` flattened and lower-cased, the months it says a date must reach beyond
    another), None where it says none: every caller a case scores is read against the
    same sentences (`expires_short`)."""
    flat = " ".join(text.split())
    match = _MONTHS_PAST.search(flat)
    if match is None:
        return None
    count = match["n"].lower()
    return flat.lower(), int(count) if count.isdigit() else NUMBER_WORDS[count]


__all__ = [
    "Held",
    "branch_facts",
    "branch_fit",
    "expires_short",
    "held_values",
    "lacks",
    "moot",
    "ruled_out",
    "total",
]
