"""The words the Mantle engine reads in a message: stems, yes/no, closings, amounts.

Shared by the engine, its field and skill words, and the bank's brain; pure functions of a
text (the stems are kept per text).
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Any

from ..._stem import stem
from ...lexicon.en.customer_replies import (
    ADVERSARIAL,
    CANCEL,
    CLOSING,
    CORRECTING,
    NO_WORDS,
    YES_WORDS,
)
from ...lexicon.en.skill_routing import NOT_FOR as _NOT_FOR

_STOP_TEXT = """
    a about after again all also am an and any are as at be been before being but by can
    could did do does doing don't for from get got had has have having he her here him his
    how i i'd i'm i've if in into is isn't it it's its just let like me more my myself need
    needs no nor not now of off on once one only or other our out over own please same she
    should so some something such than that the their them then there these they thing this
    those through to too under until up us very want wants was wasn't we were what when
    where which while who whom why will with would you your yours customer customers agent
    """
_STOP = frozenset(_STOP_TEXT.split())
_WORD = re.compile(r"[a-z0-9][a-z0-9'_]*")
_EXPLAINED = r"(?<![\w]){value}(?![\w])\s*\(([^()]*)\)"


def routing_description(text: str) -> str:
    """`text` without the sentences that say what the skill is not for."""
    return _NOT_FOR.sub(" ", text)


def stems(text: str) -> list[str]:
    return list(_stems(text))


@lru_cache(maxsize=8192)
def _stems(text: str) -> tuple[str, ...]:
    """Kept per text: every turn of every verification play weighs the same texts again."""
    out: dict[str, None] = {}
    for word in _WORD.findall(text.lower().replace("\u2019", "'")):
        word = word.removesuffix("'s")
        if word in _STOP or len(word) < 3 or word.isdigit():
            continue
        stemmed = stem(word)
        if stemmed not in _STOP:
            out.setdefault(stemmed)
    return tuple(out)


def spoken(value: Any) -> str:
    return re.sub(r"[_\-]+", " ", str(value)).strip().lower()


@lru_cache(maxsize=4096)
def yes_or_no(text: str) -> bool | None:
    """Kept per text, like the stems."""
    if NO_WORDS.search(text):
        return False
    if YES_WORDS.search(text):
        return True
    return None


@lru_cache(maxsize=4096)
def parse_amount(text: str) -> float | None:
    """The first number in the text, as a float ("$60.00" -> 60.0); kept per text."""
    grouped = re.search(r"(?<![\w.,])\$?\s?(\d{1,3}(?:,\d{3})+(?:\.\d{1,2})?)(?![\d,])", text)
    if grouped:  # thousands separators: "$3,980.00"
        return float(grouped[1].replace(",", ""))
    match = re.search(r"(?<![\w.])\$?\s?(\d+(?:[.,]\d{1,2})?)(?!\d)", text)
    return float(match[1].replace(",", ".")) if match else None


__all__ = [
    "ADVERSARIAL",
    "CANCEL",
    "CLOSING",
    "CORRECTING",
    "NO_WORDS",
    "YES_WORDS",
    "parse_amount",
    "spoken",
    "stems",
    "yes_or_no",
]
