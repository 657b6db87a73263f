"""How a text names a field's values (rule 5 of `_direction`): lower-case words, light
stems, stopwords, and the scoring of a value's own words and distinctive stems.

Kept apart from the direction parser because planners and drafters use it on its own (to
find which value a line or a button title names).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from evalcore.definitions import memoized
from evalcore.lexicon.en import stem
from evalcore.lexicon.en.negated_mentions import WORD_BEFORE as _NEGATED
from evalcore.lexicon.en.stop_words import NO_VALUE as STOPWORDS

_WORD = re.compile(r"[a-z0-9][a-z0-9'_]*")


# --- words -------------------------------------------------------------------------------


def words(text: str) -> list[str]:
    """Lower-case words (apostrophes kept, so "don't" stays one word)."""
    return _WORD.findall(text.lower().replace("\u2019", "'"))


def content_stems(text: str) -> list[str]:
    """Stems of the words of `text` that are not stopwords (order kept, repeats dropped)."""
    out: dict[str, None] = {}
    for word in words(text):
        word = word.removesuffix("'s")
        if word in STOPWORDS or len(word) < 3 or word.isdigit():
            continue
        stemmed = stem(word)
        if stemmed not in STOPWORDS:
            out.setdefault(stemmed)
    return list(out)


# --- values ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Choice:
    """One selectable value of one field and the phrases that describe it."""

    field: str
    """The field as the dialect names it (`card_replace.replacement_reason`)."""
    value: Any
    phrases: tuple[str, ...] = ()
    """Descriptions of the value: bracketed text after it in a description, button titles."""


@dataclass(frozen=True)
class ValueMatch:
    """How strongly a text names one value of a field."""

    field: str
    value: Any
    score: int
    """10 for the value's own words, plus 1 per distinctive stem found."""
    position: int
    """Character offset of the first mention (ties go to the earlier one)."""

    @property
    def strong(self) -> bool:
        """Own words, or at least two distinctive stems: enough to record without asking."""
        return self.score >= 2


def value_words(value: Any) -> str:
    """How a value reads in text: `not_received` -> `not received`."""
    return re.sub(r"[_\-]+", " ", str(value)).strip().lower()


def value_phrases(text: str | None, values: Iterable[Any]) -> dict[Any, list[str]]:
    """The bracketed explanation after each value in a description.

    `"lost, stolen, damaged (also a chip that stopped working) or not_received (never
    arrived)"` gives `{"damaged": ["also a chip that stopped working"], "not_received":
    ["never arrived"]}`. Matching is case-insensitive (`Standard (free)` explains `standard`).
    """
    out: dict[Any, list[str]] = {}
    if not text:
        return out
    for value in values:
        pattern = re.compile(rf"(?<![\w]){re.escape(str(value))}(?![\w])\s*\(([^()]*)\)", re.I)
        for match in pattern.finditer(text):
            out.setdefault(value, []).append(" ".join(match.group(1).split()))
    return out


def _name_pattern(value: Any) -> re.Pattern[str]:
    parts = [re.escape(p) for p in value_words(value).split()]
    return re.compile(r"(?<![\w'])" + r"[\s_\-]+".join(parts) + r"(?![\w])", re.IGNORECASE)


def _name_position(text: str, value: Any) -> int | None:
    """Offset of the first un-negated mention of the value's own words."""
    for match in _name_pattern(value).finditer(text):
        if not _NEGATED.search(text[max(0, match.start() - 8) : match.start()]):
            return match.start()
    return None


def distinctive_stems(choices: Sequence[Choice]) -> dict[Any, set[str]]:
    """Per value: stems of its phrases and own words that no other value of the field uses.

    Kept with the field's first choice (a loaded project's choices are built once, and
    every line matched against the field weighs the same ones), by the exact choices: the
    caller gets its own sets."""
    if not choices:
        return {}
    key = ("distinctive_stems", tuple(choices))
    try:
        hash(key)
    except TypeError:  # an unhashable value: read afresh
        return _distinctive_stems(choices)
    kept = memoized(choices[0], key, lambda: _distinctive_stems(choices))
    return {value: set(found) for value, found in kept.items()}


def _distinctive_stems(choices: Sequence[Choice]) -> dict[Any, set[str]]:
    stems: dict[Any, set[str]] = {}
    for choice in choices:
        found = set(content_stems(" ".join((value_words(choice.value), *choice.phrases))))
        stems.setdefault(choice.value, set()).update(found)
    shared: dict[str, int] = {}
    for found in stems.values():
        for item in found:
            shared[item] = shared.get(item, 0) + 1
    return {value: {s for s in found if shared[s] == 1} for value, found in stems.items()}


def match_values(
    text: str, choices: Sequence[Choice], *, own_words_only: bool = False
) -> list[ValueMatch]:
    """Every value of one field that `text` names, best first (see rule 5 above)."""
    if not choices:
        return []
    field_name = choices[0].field
    distinct = {} if own_words_only else distinctive_stems(choices)  # read only when weighed
    text_stems = content_stems(text)
    lowered = text.lower()
    found: list[ValueMatch] = []
    for choice in choices:
        score, position = 0, len(text)
        named = _name_position(text, choice.value)
        if named is not None:
            score, position = 10, named
        if not own_words_only:
            hits = [s for s in text_stems if s in distinct.get(choice.value, set())]
            score += len(hits)
            for hit in hits:
                at = lowered.find(hit)
                position = min(position, at if at >= 0 else position)
        if score:
            found.append(ValueMatch(field_name, choice.value, score, position))
    found.sort(key=lambda m: (-m.score, m.position))
    return found


def best_value(
    text: str, choices: Sequence[Choice], *, own_words_only: bool = False
) -> ValueMatch | None:
    """The value `text` names most strongly, or None."""
    found = match_values(text, choices, own_words_only=own_words_only)
    return found[0] if found else None


def by_field(choices: Iterable[Choice]) -> dict[str, list[Choice]]:
    grouped: dict[str, list[Choice]] = {}
    for choice in choices:
        grouped.setdefault(choice.field, []).append(choice)
    return grouped


__all__ = [
    "STOPWORDS",
    "Choice",
    "ValueMatch",
    "best_value",
    "by_field",
    "content_stems",
    "distinctive_stems",
    "match_values",
    "stem",
    "value_phrases",
    "value_words",
    "words",
]
