"""A place a case names that fits the kind of trip, call or delivery the case plays.

A case that fixes `trip_type: domestic`, whose description reads "domestic for US cities,
international otherwise", cannot send the user to a city drawn at random from the
destination's examples ("e.g. Chicago or London"): a domestic trip to London contradicts
the value the case asserts. Where the project's records pair a place with a region (an
executive's `home_office` beside a `time_zone` of `America/New_York`), the region of the
caller's own record is home: the home kind (domestic, local) takes an example in the same
area, the other kind (international, abroad) one in another area, and never the caller's
own place (a trip to where they already are is no request). Where the records do not
place the examples or the caller, nothing decides the fit and no value is offered.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import Any

from ..lexicon.en.record_states import TRIP_KIND
from ._records import DataRecords

#: The kind that stays in the caller's own area (`home`), and the one that leaves it (`away`).
_KIND = TRIP_KIND
#: An IANA time zone (`Europe/London`): its area is the part before the slash.
_ZONE = re.compile(r"^(?P<area>[A-Z][A-Za-z]+)/[A-Z][A-Za-z_/-]+$")


def _noun_in(name: str, description: str) -> bool:
    """Whether `description` names the thing field `name` ends in (`destination_city`:
    "US cities")."""
    noun = name.rsplit("_", 1)[-1].lower()
    if len(noun) < 3:
        return False
    forms = {noun, noun + "s", noun + "es"}
    if noun.endswith("y"):
        forms.add(noun[:-1] + "ies")
    return any(w in forms for w in re.findall(r"[a-z]+", description.lower()))


def _area(record: Mapping[str, Any]) -> str | None:
    for value in record.values():
        zone = _ZONE.match(value) if isinstance(value, str) else None
        if zone is not None:
            return zone["area"]
    return None


def _areas(records: DataRecords) -> dict[str, str]:
    """Place (lower case) -> the area a record that holds it lies in."""
    out: dict[str, str] = {}
    for collection in records.collections:
        for record in collection.records:
            area = _area(record)
            if area is None:
                continue
            for value in record.values():
                if isinstance(value, str) and not _ZONE.match(value):
                    out.setdefault(value.strip().lower(), area)
    return out


def _home(name: str, kinds: Iterable[tuple[str, str]]) -> bool | None:
    """True where the kinds the case fixes that name the field's thing keep to the caller's
    area, False where they leave it, None where none applies (or they disagree)."""
    wanted = set()
    for value, description in kinds:
        if not _noun_in(name, description):
            continue
        kind = _KIND.match(value.strip())
        if kind is not None:
            wanted.add(kind["home"] is not None)
    return wanted.pop() if len(wanted) == 1 else None


def _fitting(
    name: str,
    examples: Iterable[str],
    kinds: Iterable[tuple[str, str]],
    records: DataRecords,
    own: Iterable[Mapping[str, Any]],
) -> list[str] | None:
    """The examples that fit, in order; None where nothing decides (no kind applies, the
    records place neither the caller nor any example)."""
    home = _home(name, kinds)
    if home is None:
        return None
    mine = list(own)
    area = next((a for a in map(_area, mine) if a is not None), None)
    placed = _areas(records)
    listed = [e for e in examples if e.strip().lower() in placed]
    if area is None or not listed:
        return None
    held = {v.strip().lower() for r in mine for v in r.values() if isinstance(v, str)}
    return [
        e
        for e in listed
        if e.strip().lower() not in held and (placed[e.strip().lower()] == area) == home
    ]


def kind_fit(
    name: str,
    examples: Iterable[str],
    kinds: Iterable[tuple[str, str]],
    records: DataRecords,
    own: Iterable[Mapping[str, Any]],
) -> str | None:
    """The first of `examples` (the field `name`'s, in the order its description lists
    them) that fits every home/away kind of `kinds` (each: the value the case fixes, the
    description of its field) whose description names the field's thing; None where none
    fits or nothing decides."""
    fitting = _fitting(name, examples, kinds, records, own)
    return fitting[0] if fitting else None


def kind_unfit(
    name: str,
    examples: Iterable[str],
    kinds: Iterable[tuple[str, str]],
    records: DataRecords,
    own: Iterable[Mapping[str, Any]],
) -> bool:
    """Whether the records decide that no example fits the caller (`own`: their records):
    a caller based in the one US city the examples list has no domestic trip to take."""
    return _fitting(name, examples, kinds, records, own) == []


def kind_of(
    name: str,
    place: str,
    kinds: Iterable[str],
    description: str,
    records: DataRecords,
    own: Iterable[Mapping[str, Any]],
) -> str | None:
    """The one of `kinds` (a categorical's values, `description` its field's) that `place`,
    the value of field `name` the case already gave, fits; None where nothing decides."""
    mine = list(own)
    fits = [k for k in kinds if kind_fit(name, [place], [(k, description)], records, mine)]
    return fits[0] if len(fits) == 1 else None


__all__ = ["kind_fit", "kind_of", "kind_unfit"]
