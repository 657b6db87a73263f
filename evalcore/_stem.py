"""The one light suffix strip every word comparison of casegen shares.

Drafting picks the words a persona says and the agents read them back, the simulator
matches an agent's question to a fact's label, and the skill model reads which tool a
sentence calls by what it does: each side must meet the other's forms ("cracked"/"crack",
"verified"/"verify", "cancelled"/"cancel", "policies"/"policy").
"""

from __future__ import annotations

#: Suffixes tried in turn (the first that fits is removed) and what replaces each.
_SUFFIXES = (("ies", "y"), ("ied", "y"), ("ing", ""), ("ed", ""), ("es", ""), ("s", ""), ("e", ""))
#: Letters a stem keeps at least.
_KEPT = 3
#: A doubled final consonant is made single past this many letters ("cancell" -> "cancel").
_DOUBLED = 4


def stem(word: str) -> str:
    """Deliberately crude and stable, for lower-case words: a possessive `'s` goes, then
    one suffix of -ies/-ied (for -y), -ing, -ed, -es, -s, -e is removed where at least three
    letters remain (never from a word ending in -ss), then a doubled final consonant other
    than s is made single in a stem of five letters or more (`stopped`, `stop` -> `stop`)."""
    word = word.strip("'").removesuffix("'s")
    if word.endswith("ss"):
        return word
    for suffix, replacement in _SUFFIXES:
        if word.endswith(suffix) and len(word) - len(suffix) >= _KEPT:
            word = word[: -len(suffix)] + replacement
            break
    if len(word) > _DOUBLED and word[-1] == word[-2] and word[-1] not in "aeious":
        word = word[:-1]
    return word
