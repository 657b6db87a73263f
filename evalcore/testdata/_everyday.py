"""Everyday things a person names for a free field the project gives no value for: the
medicine they want moved to another pharmacy, the country they live in where the project's
choices end in a catch-all ("other"), the merchant on an expense's receipt.

A list field such as "Medicines to move, as named on the old labels" has no example and
no record to draw from, so a case used to leave it out: the simulated user then invented
one, possibly a controlled drug that changes the path the case asserts. The items here are
common, uncontrolled ones (nothing a rule about Schedule II drugs applies to), and an item
the project's own data already names (a prescription filled at this pharmacy) is passed
over: moving what is already here is no transfer. A choice's catch-all value is what a
person never says: they name a real thing none of the other choices covers (a country
without a section of its own), `other_than`. A merchant fits the kind of expense the case
chose (a hotel for lodging, never a taxi firm), `merchant_for`. Nothing fits: None, never
filler.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from ..lexicon.en.field_name_words import PAID as _PAID
from ._records import DataRecords
from ._told import _words as told_words


@dataclass(frozen=True)
class Things:
    """Things of one kind: the words of a field that names them, and what a person says."""

    topic: frozenset[str]
    items: tuple[str, ...]


#: Kinds of things a person names; medicines are uncontrolled and in wide use.
EVERYDAY = (
    Things(
        frozenset(["medicine", "medicines", "medication", "medications", "drug", "drugs"]),
        (
            "Metformin 500 mg tablet",
            "Levothyroxine 50 mcg tablet",
            "Amlodipine 5 mg tablet",
            "Omeprazole 20 mg capsule",
            "Losartan 50 mg tablet",
        ),
    ),
    Things(
        frozenset(["country", "countries", "nation", "nationality"]),
        ("Portugal", "Brazil", "Canada", "Poland", "Japan"),
    ),
)
#: Merchants by the words of the expense kind they fit (`lodging`, `ground_transport`).
MERCHANTS = (
    Things(
        frozenset(["lodging", "hotel", "hotels", "accommodation"]),
        ("Marriott Marquis", "Hilton Garden Inn", "Hyatt Regency"),
    ),
    Things(
        frozenset(["airfare", "flight", "flights", "air", "airline"]),
        ("Delta Air Lines", "United Airlines", "British Airways"),
    ),
    Things(
        frozenset(["ground", "transport", "taxi", "car", "rail", "train", "parking"]),
        ("Uber", "Yellow Cab", "Amtrak"),
    ),
    Things(
        frozenset(["meals", "meal", "dinner", "lunch", "food", "entertainment", "restaurant"]),
        ("The Capital Grille", "Le Pain Quotidien", "Nobu"),
    ),
)
#: The currency each merchant above is paid in where it is not US dollars: a case paying in
#: dollars names a US merchant, and a skill may assume dollars for one.
_PAID_IN = {"British Airways": "GBP"}
#: Merchants of the countries that pay in another currency, by currency code: a case that
#: pays in pounds names a UK merchant, never a US one whose receipt would be in dollars.
ABROAD = {
    "GBP": (
        Things(frozenset(["lodging", "hotel", "hotels", "accommodation"]), ("The Savoy",)),
        Things(frozenset(["airfare", "flight", "flights", "air", "airline"]), ("British Airways",)),
        Things(
            frozenset(["ground", "transport", "taxi", "car", "rail", "train", "parking"]),
            ("Addison Lee", "Heathrow Express"),
        ),
        Things(
            frozenset(["meals", "meal", "dinner", "lunch", "food", "entertainment", "restaurant"]),
            ("Dishoom", "Rules Restaurant"),
        ),
    ),
    "EUR": (
        Things(frozenset(["lodging", "hotel", "hotels", "accommodation"]), ("Hotel Adlon",)),
        Things(frozenset(["airfare", "flight", "flights", "air", "airline"]), ("Lufthansa",)),
        Things(
            frozenset(["ground", "transport", "taxi", "car", "rail", "train", "parking"]),
            ("Deutsche Bahn", "G7 Taxi"),
        ),
        Things(
            frozenset(["meals", "meal", "dinner", "lunch", "food", "entertainment", "restaurant"]),
            ("Brasserie Lipp",),
        ),
    ),
}
#: The values of a choice that stand for everything its other values do not cover.
CATCH_ALL = frozenset(["other", "others", "something_else", "anything_else", "elsewhere"])


def _words(text: str) -> set[str]:
    """The lower-case words of `text`, a field name's parts too (`medications_list`)."""
    return set(told_words(text))


def _named_in(records: DataRecords) -> set[str]:
    """The words of every text value of the project's data files."""
    out: set[str] = set()
    for collection in records.collections:
        for record in collection.records:
            for value in record.values():
                if isinstance(value, str):
                    out |= _words(value)
    return out


def everyday_item(name: str, records: DataRecords, rng: random.Random) -> str | None:
    """One thing of the kind field `name` names (`medications`), drawn by the case's `rng`
    among those the project's records never name; None where no kind fits or all are
    named."""
    words = _words(name)
    kind = next((t for t in EVERYDAY if t.topic & words), None)
    if kind is None:
        return None
    named = _named_in(records)
    free = [item for item in kind.items if item.split()[0].lower() not in named]
    return rng.choice(free) if free else None


def merchant_for(
    name: str, kinds: list[str], rng: random.Random, currency: str | None = None
) -> str | None:
    """A merchant for field `name` (`merchant`) that fits the first of the case's chosen
    values (`kinds`: `lodging`) a merchant kind fits, drawn by `rng`, and is paid in
    `currency` where the case says one (`GBP`: a UK merchant; `USD`: a US one); None where
    the field names no payee, no chosen value says the kind of expense, or no merchant of
    that kind takes the currency."""
    if not _PAID & _words(name):
        return None
    code = (currency or "").upper()
    catalogue = ABROAD.get(code, MERCHANTS)
    for kind in kinds:
        said = _words(kind)
        fits = next((m for m in catalogue if m.topic & said), None)
        if fits is None:
            continue
        items = fits.items
        if code == "USD":
            items = tuple(m for m in items if _PAID_IN.get(m, "USD") == "USD")
        if not items:
            return None
        return rng.choice(items)
    return None


def other_than(name: str, value: str, values: tuple[str, ...] | list[str]) -> str | None:
    """What a person says for `value` of choice field `name` when it is a catch-all
    (`other`): the first thing of the field's kind that no other choice names; None for any
    other value or a field of no known kind."""
    if value.strip().lower().replace("-", "_").replace(" ", "_") not in CATCH_ALL:
        return None
    words = _words(name)
    kind = next((t for t in EVERYDAY if t.topic & words), None)
    if kind is None:
        return None
    named = {w for v in values for w in _words(str(v))}
    return next((item for item in kind.items if not _words(item) & named), None)


def caught_by(name: str, text: str, values: tuple[str, ...] | list[str]) -> str | None:
    """The catch-all value of choice field `name` that an answer naming a thing of the
    field's kind no other value names falls under ("Portugal" under `other`, as the runtime's
    model reads it); None where the answer names none or the choice has no catch-all."""
    catch = next((v for v in values if str(v).lower() in CATCH_ALL), None)
    words = _words(name)
    kind = next((t for t in EVERYDAY if t.topic & words), None)
    if catch is None or kind is None:
        return None
    said = _words(text)
    named = {w for v in values for w in _words(str(v))}
    hit = any(_words(item) <= said and not _words(item) & named for item in kind.items)
    return catch if hit else None


__all__ = [
    "ABROAD",
    "CATCH_ALL",
    "EVERYDAY",
    "MERCHANTS",
    "Things",
    "caught_by",
    "everyday_item",
    "merchant_for",
    "other_than",
]
