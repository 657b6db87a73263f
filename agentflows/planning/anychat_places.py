"""Where an Anychat business is, when its definitions say so: the city `anychat.yml` or the
Default Playbook's body names ("9 Mill Lane, Seattle") sets the
area code of the case's people and the time zone of the frozen clock, so a reviewer does not
meet a Boston number and a New York clock in a shop that says it is on the west coast.

Only cities of the +1 numbering plan are known (the roster's numbers are +1 numbers in the
555-01xx range set aside for fiction; only the area code changes). A city name that several
known places share (Springfield, Illinois and Springfield, Massachusetts) counts only where
the text also
names the state or a ZIP code of one of them. Where no known place is named, the people and
the clock stay as they are.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from evalcore.definitions import AnychatDefinitions


@dataclass(frozen=True)
class Place:
    """A city: its state (name and postal abbreviation), the first digits of its ZIP codes,
    the area code of its centre and its time zone."""

    city: str
    state: str
    abbreviation: str
    zip_prefix: str
    area_code: str
    zone: str


PLACES: tuple[Place, ...] = (
    Place("Atlanta", "Georgia", "GA", "303", "404", "America/New_York"),
    Place("Austin", "Texas", "TX", "787", "512", "America/Chicago"),
    Place("Boston", "Massachusetts", "MA", "021", "617", "America/New_York"),
    Place("Chicago", "Illinois", "IL", "606", "312", "America/Chicago"),
    Place("Dallas", "Texas", "TX", "752", "214", "America/Chicago"),
    Place("Denver", "Colorado", "CO", "802", "303", "America/Denver"),
    Place("Houston", "Texas", "TX", "770", "713", "America/Chicago"),
    Place("Los Angeles", "California", "CA", "900", "213", "America/Los_Angeles"),
    Place("Miami", "Florida", "FL", "331", "305", "America/New_York"),
    Place("Minneapolis", "Minnesota", "MN", "554", "612", "America/Chicago"),
    Place("Nashville", "Tennessee", "TN", "372", "615", "America/Chicago"),
    Place("New York", "New York", "NY", "100", "212", "America/New_York"),
    Place("Philadelphia", "Pennsylvania", "PA", "191", "215", "America/New_York"),
    Place("Phoenix", "Arizona", "AZ", "850", "602", "America/Phoenix"),
    Place("Portland", "Oregon", "OR", "972", "503", "America/Los_Angeles"),
    Place("Portland", "Maine", "ME", "041", "207", "America/New_York"),
    Place("Springfield", "Illinois", "IL", "627", "217", "America/Chicago"),
    Place("Springfield", "Massachusetts", "MA", "011", "413", "America/New_York"),
    Place("San Diego", "California", "CA", "921", "619", "America/Los_Angeles"),
    Place("San Francisco", "California", "CA", "941", "415", "America/Los_Angeles"),
    Place("Seattle", "Washington", "WA", "981", "206", "America/Los_Angeles"),
    Place("Toronto", "Ontario", "ON", "", "416", "America/Toronto"),
    Place("Vancouver", "British Columbia", "BC", "", "604", "America/Vancouver"),
)
_CITIES = sorted({p.city for p in PLACES}, key=len, reverse=True)
_PLACE = re.compile(r"\b(" + "|".join(re.escape(c) for c in _CITIES) + r")\b")
_ZIP = re.compile(r"(?<![\d-])(\d{5})(?:-\d{4})?(?![\d-])")
#: A roster phone: +1, an area code, then the local number.
_NANP = re.compile(r"^\+1(\d{3})(\d{7})$")


def _texts(defs: AnychatDefinitions) -> tuple[str, ...]:
    """What says where the business is: `anychat.yml`'s agent values, then the Default
    Playbook's body."""
    texts = [str(v) for v in defs.agent.values() if isinstance(v, str)]
    default = defs.playbooks.get(defs.default_playbook or "")
    if default is not None:
        texts.append(default.body or "")
    return tuple(texts)


def business_place(defs: AnychatDefinitions | None) -> Place | None:
    """The known place the definitions name, or None (none named, or a shared city name
    that no state or ZIP code settles)."""
    return _place(_texts(defs)) if defs is not None else None


@lru_cache(maxsize=64)
def _place(texts: tuple[str, ...]) -> Place | None:
    text = "\n".join(texts)
    match = _PLACE.search(text)
    if match is None:
        return None
    candidates = [p for p in PLACES if p.city == match.group(1)]
    if len(candidates) == 1:
        return candidates[0]
    zips = _ZIP.findall(text)
    settled = [
        p
        for p in candidates
        if re.search(rf"\b{re.escape(p.state)}\b|, {p.abbreviation}\b", text)
        or (bool(p.zip_prefix) and any(z.startswith(p.zip_prefix[:2]) for z in zips))
    ]
    return settled[0] if len(settled) == 1 else None


def business_zone(defs: AnychatDefinitions | None) -> str | None:
    """The time zone of the place the definitions name, or None."""
    place = business_place(defs)
    return place.zone if place else None


def local_phone(phone: str, defs: AnychatDefinitions | None) -> str:
    """`phone` with the area code of the business's place (the local number kept), or as it
    is where no place is named or the number is not a +1 one."""
    place = business_place(defs)
    match = _NANP.match(phone)
    if place is None or match is None:
        return phone
    return f"+1{place.area_code}{match.group(2)}"


__all__ = ["PLACES", "Place", "business_place", "business_zone", "local_phone"]
