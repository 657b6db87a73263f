"""Who calls, when the agent lists its callers: "Callers are account holders, tenants who pay
the bill for a rented home, and property managers with many addresses."

The agent's own list is the most faithful persona source: each item that names people
becomes a role in its own words ("a tenant who pays the bill for a rented home"). A list
whose people all belong to one domain of the table keeps that domain's richer roles (the
caller decides; see `_people.roles_for`).
"""

from __future__ import annotations

import re
from collections.abc import Callable

from ..lexicon.en.audience import (
    CALLER_KINDS,
    CALLER_LIST,
    ITEM_TAIL,
    LIST_ITEMS,
    NOW_AND_THEN,
    PLURAL_PEOPLE,
    WHO_VERB,
)

_LIST = CALLER_LIST
_KINDS = CALLER_KINDS
_PARENS = re.compile(r"\([^)]*\)")
_ITEMS = LIST_ITEMS
_TAIL = ITEM_TAIL
_NOW_AND_THEN = NOW_AND_THEN
_WHO_VERB = WHO_VERB
_NO_S = ("s", "sh", "ch", "x", "z")
_PLURAL = PLURAL_PEOPLE


def listed_people(
    text: str,
    singular_person: Callable[[list[str]], str | None],
    *,
    search: Callable[[re.Pattern[str]], re.Match[str] | None] | None = None,
) -> list[tuple[str, str]]:
    """The people items of the agent's caller list as (who, described): singular, the
    second with its description ("tenants who pay the bill" -> ("tenant", "tenant who pays
    the bill")); [] when it lists none.

    `singular_person` turns an item's head words into a singular noun phrase when its last
    word names people ("account holders" -> "account holder"), else None. `search` finds a
    pattern's first match in `text` (`Scan.first`, which keeps a shared start's)."""
    find = search or (lambda pattern: pattern.search(text))
    for match in (find(_LIST), find(_KINDS)):
        people = _items(match, singular_person) if match is not None else []
        if people:
            return people
    return []


def _items(
    match: re.Match[str], singular_person: Callable[[list[str]], str | None]
) -> list[tuple[str, str]]:
    people: list[tuple[str, str]] = []
    for item in _ITEMS.split(_PARENS.sub(" ", match["list"])):
        words = item.strip().split()
        if not words or words[0] in ("who", "whose", "which", "that"):
            continue  # ", who use you to record ...": what the item before does
        phrase = " ".join(words)
        now_and_then = _NOW_AND_THEN.match(phrase)
        if now_and_then:
            phrase = phrase[now_and_then.end() :]
        tail = _TAIL.search(phrase)
        head = phrase[: tail.start()] if tail else phrase
        # "callers are older": a list of people names them in the plural; the list ends
        # where its items stop naming people ("..., a break-in, a burst pipe")
        plural = _PLURAL.search(head) is not None
        named = singular_person(head.split()) if plural or now_and_then else None
        if named is None:
            break
        rest = phrase[tail.start() :] if tail else ""
        people.append((named, named + _WHO_VERB.sub(_third_person, rest)))
    return people


def _third_person(match: re.Match[str]) -> str:
    """ "who pay" -> "who pays": the item is now one person."""
    pronoun, verb = match[1], match[2]
    if verb in {"are", "were"}:
        return f"{pronoun} {'is' if verb == 'are' else 'was'}"
    if verb == "have":
        return f"{pronoun} has"
    if verb.endswith("s") and not verb.endswith("ss"):
        return match[0]
    if verb.endswith(_NO_S) or verb.endswith("ss"):
        return f"{pronoun} {verb}es"
    return f"{pronoun} {verb}s"


__all__ = ["listed_people"]
