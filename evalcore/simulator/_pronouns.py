"""The user's own words from a line written to the user: "you" becomes "I" or "me" by grammar.

A context speaks to the simulated user ("You want to book an inspection, but you'd rather
arrange it with a person"); the user's line says it in the first person ("…, but I'd rather
arrange it with a person"). "your" is always "my", but "you" is a subject ("I") or an object
("me") by its place in the sentence: after a preposition or a verb that takes a person
("to you", "call you back") it is an object; before a verb ("you would", "you lost"), at the
start of a clause ("but you …", "if you …") or in a contraction ("you'd") it is a subject.
"""

from __future__ import annotations

import re

from ..lexicon.en.pronoun_words import AFTER_OBJECT as _AFTER_OBJECT
from ..lexicon.en.pronoun_words import CLAUSE_OPENERS as _CLAUSE_OPENERS
from ..lexicon.en.pronoun_words import CONTRACTED as _CONTRACTED
from ..lexicon.en.pronoun_words import COPULAS as _COPULAS
from ..lexicon.en.pronoun_words import DETERMINERS as _DETERMINERS
from ..lexicon.en.pronoun_words import OBJECT_VERBS as _OBJECT_VERBS
from ..lexicon.en.pronoun_words import PREPOSITIONS as _PREPOSITIONS
from ..lexicon.en.pronoun_words import SUBJECT_VERBS
from ..lexicon.en.pronoun_words import SWAPS as _SWAPS

_APOSTROPHES = ("'", "\u2019")


def first_person(text: str) -> str:
    """`want to check your balance` → `want to check my balance`; `but you'd rather call`
    → `but I'd rather call`; `want someone to call you back` → `… call me back`."""
    parts = re.split(r"(\w+)", text)  # the words at odd places, what is between them at even
    for i in range(1, len(parts), 2):
        word = parts[i].lower()
        if word in _SWAPS:
            parts[i] = _cased(_SWAPS[word], parts[i])
        elif word == "you":
            _you(parts, i)
    return "".join(parts)


def _you(parts: list[str], i: int) -> None:
    """Put "I" (with the verb's first-person form) or "me" at `parts[i]`."""
    between = parts[i + 1] if i + 1 < len(parts) else ""
    after = parts[i + 2].lower() if i + 2 < len(parts) else ""
    if between in _APOSTROPHES and after in _CONTRACTED:
        parts[i], parts[i + 2] = "I", _CONTRACTED[after]
        return
    before = parts[i - 1] if i >= 1 else ""
    prev = parts[i - 2].lower() if i >= 2 and before.strip() == "" else ""
    # "the bill you received": a verb's form after a determiner is a noun, not the verb
    noun = i >= 4 and parts[i - 3] == " " and parts[i - 4].lower() in _DETERMINERS
    if prev in _PREPOSITIONS or prev in _COPULAS or (_stem(prev) in _OBJECT_VERBS and not noun):
        parts[i] = _cased("me", parts[i])
        return
    spaced = between == " "
    if spaced and after == "aren" and parts[i + 3 : i + 5] == ["'", "t"]:
        parts[i], parts[i + 2], parts[i + 3], parts[i + 4] = "I", "am", " ", "not"
        return
    if spaced and after in SUBJECT_VERBS:
        parts[i], parts[i + 2] = "I", SUBJECT_VERBS[after]
        return
    opens = not prev or prev in _CLAUSE_OPENERS
    if not opens and (not spaced or not after or after in _AFTER_OBJECT or after in _PREPOSITIONS):
        parts[i] = _cased("me", parts[i])  # "want you and your wife covered", "guide you through"
        return
    parts[i] = "I"  # "tell them you moved", "the car you drive", "if you qualify"


def _stem(word: str) -> str:
    """A verb's plain form, roughly ("charged" -> "charge", "calls" -> "call")."""
    for end, back in (("ied", "y"), ("ies", "y"), ("ed", ""), ("es", ""), ("s", ""), ("ing", "")):
        if word.endswith(end) and len(word) > len(end) + 2:
            stem = word[: -len(end)] + back
            if stem in _OBJECT_VERBS:
                return stem
            if stem + "e" in _OBJECT_VERBS:
                return stem + "e"
            if len(stem) > 2 and stem[-1] == stem[-2] and stem[:-1] in _OBJECT_VERBS:
                return stem[:-1]
    return word


def _cased(word: str, like: str) -> str:
    return word[:1].upper() + word[1:] if like[:1].isupper() else word


__all__ = ["SUBJECT_VERBS", "first_person"]
