"""Callers a case can seed: the test accounts in a project's own records, else built-in ones.

A case that seeds a caller phone needs the person behind it: the persona's name and the
identity details they give when the agent checks who is calling (date of birth, postcode).
Where the project's data files hold people with a phone (`data/**/customers.json` with
`phone`, `first_name`, `date_of_birth` …), those are the callers: the project's staging
backend knows them, so what the user says matches what its tools check. Only a project with
none gets the built-in test accounts, and a case drawn from them says so (`Caller.built_in`).

Two of the accounts answer differently on purpose (`_accounts`): the failing one, whose
write tools error, and the negative one, whose checks come back negative. A project's own
record with that phone is used for those cases; else the built-in one.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from .._sha256 import sha256
from ._accounts import FAILING_ACCOUNT, NEGATIVE_ACCOUNT
from ._records import DataRecords, in_standing, record_name
from ._session import own_key
from ._values import spoken_date

#: Where a built-in caller comes from (`Caller.source`).
BUILT_IN = "built-in test account"
#: Words of a record key that holds a phone number.
_PHONE_KEYS = ("phone", "mobile", "msisdn", "caller_number")
_PHONE_VALUE = re.compile(r"^\+?\d[\d\s().-]{5,}\d$")
_ISO_DAY = re.compile(r"^\d{4}-\d{2}-\d{2}$")


@dataclass(frozen=True)
class Caller:
    """One person a case can seed as the caller."""

    name: str
    """First name, as the persona uses it."""
    phone: str
    """As the records hold it (seeded as the caller phone)."""
    details: dict[str, str] = field(default_factory=dict)
    """Record key -> the value as the person says it (`date_of_birth: 14 March 1986`)."""
    source: str = BUILT_IN
    """The data file the record is in (`data/staging/customers.json`), or `BUILT_IN`."""
    record: dict[str, Any] | None = field(default=None, compare=False)
    """The project's record (None for a built-in account)."""
    collection: str = ""
    """The name of the records' file (`customers`), for a project's caller."""
    within: dict[str, Any] | None = field(default=None, compare=False)
    """The record of another file the person is nested in (their booking), whose id
    (the booking reference) a check asks them for; None for a record of their own."""
    full_name: str = ""
    """First and last name, where the record names them with keys `record_name` does not
    read (a passenger's `first` and `last`)."""

    @property
    def built_in(self) -> bool:
        return self.record is None

    def detail(self, words: str) -> str | None:
        """What the caller says for one identity detail the prose asks for (`date of
        birth`, `ZIP code`, `the email on file`): the record's field of that name, else the
        one its words point at."""
        lowered = words.lower()
        wanted = "_".join(re.findall(r"[a-z0-9]+", lowered))
        if wanted in self.details:
            return self.details[wanted]
        for asked, held in _HINTS:
            if any(w in lowered for w in asked):
                found = next((k for k in self.details if held(k.lower())), None)
                if found is not None:
                    return self.details[found]
        return None


def _holds(*parts: str) -> Callable[[str], bool]:
    return lambda key: any(p in key for p in parts)


#: Words of an asked detail -> which record keys hold it.
_HINTS: tuple[tuple[tuple[str, ...], Callable[[str], bool]], ...] = (
    (("birth", "dob"), _holds("birth", "dob")),
    (("post", "zip"), _holds("post", "zip")),
    (("phone", "mobile"), _holds("phone", "mobile")),
    (("mail",), _holds("mail")),
    (("name",), lambda key: key in ("first_name", "firstname", "name", "full_name")),
)


def _said(value: Any, form: str | None = None) -> str:
    """A record value as the person says it (an ISO day as `14 March 1986`, or in `form`,
    a strftime form, where the check that hears it states one)."""
    text = str(value)
    if _ISO_DAY.match(text):
        try:
            day = dt.date.fromisoformat(text)
            return day.strftime(form) if form else spoken_date(day)
        except ValueError:
            return text
    return text


#: Record keys only a person's record has (a store or a branch has a `name` and a phone too).
_PERSON_KEYS = ("first_name", "last_name", "full_name", "holder_name", "customer_name")


def _person(record: dict[str, Any]) -> bool:
    return any(k in record for k in _PERSON_KEYS) or any(
        "birth" in k.lower() or k.lower() == "dob" for k in record
    )


def callers_in(records: DataRecords) -> tuple[Caller, ...]:
    """The people the project's records hold with a phone and a name, in file order: the
    records that say a person's name or birth date where any do (a store's `name` and
    phone are no caller's), else every named record with a phone."""
    people: list[Caller] = []
    named: list[Caller] = []
    for collection in records.collections:
        for record in collection.records:
            phone_key = next(
                (
                    k
                    for k, v in record.items()
                    if any(w in k.lower() for w in _PHONE_KEYS)
                    and isinstance(v, str)
                    and _PHONE_VALUE.match(v)
                ),
                None,
            )
            full = record_name(record)
            first = record.get("first_name")
            name = first if isinstance(first, str) and first.strip() else full
            if phone_key is None or not name:
                continue
            details = {
                k: _said(v)
                for k, v in record.items()
                if isinstance(v, str | int | float) and not isinstance(v, bool)
            }
            caller = Caller(
                name=str(name).split()[0],
                phone=str(record[phone_key]),
                details=details,
                source=collection.where or f"{collection.name} records",
                record=record,
                collection=collection.name,
            )
            (people if _person(record) else named).append(caller)
    return tuple(people or named or _nested_callers(records))


#: Keys of a person's first and last name in a record nested in another file's records.
_FIRST_KEYS = ("first_name", "first", "given_name")
_LAST_KEYS = ("last_name", "last", "surname", "family_name")


def _scalars(record: Mapping[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in record.items() if _scalar_said(v)}


def _nested_callers(records: DataRecords) -> tuple[Caller, ...]:
    """The people nested in another file's records (a booking's `passengers`), where no
    record of their own holds a phone: each is a caller whose record is their own fields
    over the parent record's (the booking reference a check asks for with their last
    name), seeded by no phone."""
    out: list[Caller] = []
    for collection in records.collections:
        for parent in collection.records:
            for value in parent.values():
                if not isinstance(value, list):
                    continue
                people = [p for p in value if isinstance(p, dict)]
                # the people the parent record names (`booked_by: P1`) where it names any:
                # the one who made the booking calls about it, not their child
                named = {str(v) for v in _scalars(parent).values()}
                own = [p for p in people if str(p.get("id", "")) in named]
                for person in own or people:
                    first = next((person[k] for k in _FIRST_KEYS if k in person), None)
                    last = next((person[k] for k in _LAST_KEYS if k in person), None)
                    if not (isinstance(first, str) and isinstance(last, str) and first):
                        continue
                    record = {**_scalars(parent), **_scalars(person)}
                    out.append(
                        Caller(
                            name=first.split()[0],
                            phone="",
                            details={k: _said(v) for k, v in record.items()},
                            source=collection.where or f"{collection.name} records",
                            record=record,
                            collection=collection.name,
                            within=parent,
                            full_name=f"{first} {last}",
                        )
                    )
    return tuple(out)


def _built_in(name: str, phone: str, dob: str, postcode: str, email: str) -> Caller:
    details = {"first_name": name, "phone": phone, "date_of_birth": dob, "postcode": postcode}
    return Caller(name, phone, {**details, "email": email})


#: The callers of a project with no records of its own.
BUILT_IN_CALLERS = (
    _built_in("Priya", "+15550142", "14 March 1986", "94110", "priya.n@example.com"),
    _built_in("Marcus", "+15550177", "2 July 1979", "60614", "marcus.b@example.com"),
    _built_in("Tomás", "+15550123", "30 November 1992", "73301", "tomas.r@example.com"),
    _built_in("Grace", "+15550199", "9 September 1968", "02139", "grace.o@example.com"),
    _built_in("Amara", "+15550108", "23 April 1995", "98103", "amara.k@example.com"),
)
_BUILT_IN_SPECIAL = {
    "failing": _built_in("Jonas", FAILING_ACCOUNT, "5 May 1975", "30301", "jonas.w@example.com"),
    "negative": _built_in(
        "Lena", NEGATIVE_ACCOUNT, "17 October 1983", "80202", "lena.m@example.com"
    ),
}
_SPECIAL_PHONES = {"failing": FAILING_ACCOUNT, "negative": NEGATIVE_ACCOUNT}


def pick(key: str, options: tuple[Any, ...] | list[Any], salt: str = "") -> Any:
    """A stable choice from `options` for `key` (sha256, never Python's salted hash)."""
    digest = sha256(f"{salt}:{key}".encode()).digest()
    return options[int.from_bytes(digest[:4], "big") % len(options)]


def caller_for(
    key: str,
    account: str | None,
    callers: tuple[Caller, ...] = (),
    fits: Callable[[Caller], int] | None = None,
    slot: int | None = None,
) -> Caller:
    """The caller of the case `key`: for `account` (`failing`, `negative`) the project's
    record with that test account's phone, else one of the other `callers` (the
    project's), among those `fits` scores best (whose own records hold what the case
    needs): in turn by `slot` (the case's place among its skill's cases, so the suite's
    cases have different callers), else chosen stably by `key`; a built-in account only
    where the project has none."""
    if account in _SPECIAL_PHONES:
        phone = _SPECIAL_PHONES[account]
        own = next((c for c in callers if c.phone == phone), None)
        return own or _BUILT_IN_SPECIAL[account]
    special = set(_SPECIAL_PHONES.values())
    pool = tuple(c for c in callers if c.phone not in special)
    if pool and fits is not None:
        scores = [fits(c) for c in pool]
        pool = tuple(c for c, score in zip(pool, scores, strict=True) if score == max(scores))
    if pool and slot is not None:
        # the suite's cases of one skill take them in turn, from the start its records are
        # dealt from (`DataRecords.pick`): a case that draws a person from the file rather
        # than seeding a caller (a built-in test account's) is another slot's person
        start = int(sha256(pool[0].collection.encode()).hexdigest()[:8], 16)
        return pool[(start + slot) % len(pool)]
    chosen: Caller = pick(key, pool or BUILT_IN_CALLERS, "customer")
    return chosen


def built_in_phones(seeds: Mapping[str, Any], records: DataRecords) -> dict[str, str]:
    """The seeds that are a built-in test account's phone no record of the project holds,
    each with what it is (`project.caller_phone` -> `+15550150 is the built-in failing test
    account`): a case seeding one says its caller is not one of the project's."""
    # the files' own phones, found once per files (every written case is noted against them)
    own = records.derived(
        ("own_phones",), (), lambda: frozenset(c.phone for c in callers_in(records))
    )
    kinds = {c.phone: "" for c in BUILT_IN_CALLERS}
    kinds.update({c.phone: f"{kind} " for kind, c in _BUILT_IN_SPECIAL.items()})
    return {
        k: f"{v} is the built-in {kinds[v]}test account"
        for k, v in seeds.items()
        if isinstance(v, str) and v in kinds and v not in own
    }


def caller_ids(caller: Caller) -> dict[str, str]:
    """The caller's own ids (`policyholder_id: PH-1001`): a record of another file that
    carries one of them is the caller's only with that value."""
    return {k: v for k, v in caller.details.items() if k.lower().endswith("_id")}


def checked_details(
    records: DataRecords,
    caller: Caller,
    names: list[str],
    held: Iterable[Mapping[str, Any]] = (),
    keys: Mapping[str, str] | None = None,
    forms: Mapping[str, str] | None = None,
) -> dict[str, str]:
    """Field name -> what the caller says, for each of `names` (what a check's tool
    compares) that the caller's record or one of their own records of another file holds:
    a policy carrying their `policyholder_id` holds the date of birth and ZIP the check
    compares with. One such record gives them all (a check matches them on one row): the
    one the case holds (`held`), else one the case's records name (a held claim's policy
    number), in good standing before one that is not, with the most of `names`. `keys`
    names the record key the check's code compares a name with where it is not the
    name's own (`last_name` with a passenger's `last`). `forms` gives the strftime form a
    name's day is said in where the check states one (`date_of_birth`: `%m/%d/%Y`): the
    tool's own parser may not read the spoken `3 February 1979`."""
    record = caller.record
    keys = keys or {}
    forms = forms or {}
    if record is None:
        return {}
    ids = caller_ids(caller)
    wanted = [n for n in names if own_key(record, n) is None]
    named = {str(v) for h in held for v in h.values() if isinstance(v, str | int)}

    def rank(other: Mapping[str, Any]) -> tuple[bool, bool, bool, int]:
        return (
            any(other is h for h in held),
            any(str(v) in named for v in other.values() if isinstance(v, str | int)),
            in_standing(other),
            sum(own_key(other, n) is not None for n in wanted),
        )

    own = [
        r
        for c in records.collections
        for r in c.records
        if r is not record and any(k in r and str(r[k]) == v for k, v in ids.items())
    ]
    linked = max(own, key=rank) if wanted and own else None
    out: dict[str, str] = {}
    for name in names:
        for source in (record, linked):
            key = None
            if source is not None:
                key = keys[name] if keys.get(name) in source else own_key(source, name)
            if source is not None and key is not None and _scalar_said(source[key]):
                out[name] = _said(source[key], forms.get(name))
                break
    return out


def in_good_standing(records: DataRecords, caller: Caller) -> bool:
    """Whether the caller's record and, where they have any, one of their own records of
    another file are in good standing (`in_standing`): a caller whose only policy has
    lapsed is turned away by any check of it, and nothing the case asserts happens."""
    record = caller.record
    if record is None:
        return True
    if not in_standing(record):
        return False
    ids = caller_ids(caller)
    own = [
        r
        for c in records.collections
        for r in c.records
        if r is not record and any(k in r and str(r[k]) == v for k, v in ids.items())
    ]
    return not own or any(in_standing(r) for r in own)


def _scalar_said(value: Any) -> bool:
    return isinstance(value, str | int | float) and not isinstance(value, bool)


def holdings(records: DataRecords, caller: Caller, wanted: frozenset[str]) -> int:
    """How many of the `wanted` values (the case's fixed choices, `auto`) the caller's own
    records of the other files hold: a case about an auto claim seeds a caller with an
    auto policy."""
    ids = caller_ids(caller)
    if not ids or not wanted:
        return 0
    held: set[str] = set()
    for collection in records.collections:
        for record in collection.records:
            if record is caller.record:
                continue
            if any(k in record and str(record[k]) == v for k, v in ids.items()):
                held |= {str(v) for v in record.values() if str(v) in wanted}
    return len(held)


__all__ = [
    "BUILT_IN",
    "BUILT_IN_CALLERS",
    "Caller",
    "built_in_phones",
    "caller_for",
    "caller_ids",
    "callers_in",
    "checked_details",
    "holdings",
    "in_good_standing",
    "pick",
]
