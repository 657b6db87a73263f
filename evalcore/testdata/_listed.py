"""Ids a project's own text enumerates for a field: a case draws from them, never invents one.

A skill that says "Demo claim numbers include CLAIM1234 through CLAIM1238" defines the set
of claim numbers its backend knows; a happy path with `CLAIM5035` asks about a claim that
does not exist. `listed_values(text, name, description)` finds, in the text, a range
(`CLAIM1234 to CLAIM1238`, `CLAIM1234–1238`, `CLAIM1234-CLAIM1238`) or a list of two or
more ids of one shape in a sentence (`R-101, R-102 and R-105`), and keeps the ones that are
the field's: of the shape of the example its description gives (`for example CLAIM1236`),
or, without an example, in a sentence that names the field (`claim number`).
"""

from __future__ import annotations

import re

from ..lexicon.en.id_ranges import ID_RANGE

#: An id: capitals (and dashes) then digits, maybe more dash-separated parts (`RTR-123-01`).
_ID = r"[A-Z][A-Z_-]*\d{2,}(?:-\d+)*"
_TOKEN = re.compile(rf"\b{_ID}\b")
_RANGE = ID_RANGE
_SENTENCE = re.compile(r"(?<=[.!?])\s+|\n\s*\n")
#: The most values one range may stand for (a wider one is a range of something else).
_MOST = 50


def _shape(token: str) -> str:
    return re.sub(r"\d", "9", token)


def _ranges(sentence: str) -> list[str]:
    out: list[str] = []
    for match in _RANGE.finditer(sentence):
        prefix, again = match["prefix"], match["again"]
        start, end = match["start"], match["end"]
        if again is not None and again != prefix:
            continue
        if len(end) < len(start):  # `CLAIM1234–38`: the end's last digits
            end = start[: len(start) - len(end)] + end
        low, high = int(start), int(end)
        if len(end) != len(start) or not 0 < high - low < _MOST:
            continue
        out += [f"{prefix}{n:0{len(start)}d}" for n in range(low, high + 1)]
    return out


def _lists(sentence: str) -> list[str]:
    tokens = _TOKEN.findall(sentence)
    by_shape: dict[str, list[str]] = {}
    for token in tokens:
        by_shape.setdefault(_shape(token), []).append(token)
    return [t for same in by_shape.values() if len(set(same)) >= 2 for t in same]


def _names_field(sentence: str, name: str) -> bool:
    words = name.replace("_", " ").lower()
    lowered = sentence.lower()
    return name.lower() in lowered or words in lowered or words + "s" in lowered


def listed_values(text: str, name: str, description: str = "") -> tuple[str, ...]:
    """The ids `text` enumerates for field `name` (see module), in order, each once."""
    examples = {_shape(t) for t in _TOKEN.findall(description)}
    found: list[str] = []
    for sentence in _SENTENCE.split(f"{description}\n\n{text}"):
        values = _ranges(sentence) + _lists(sentence)
        if not values:
            continue
        if examples:
            found += [v for v in values if _shape(v) in examples]
        elif _names_field(sentence, name):
            found += values
    return tuple(dict.fromkeys(found))


__all__ = ["listed_values"]
