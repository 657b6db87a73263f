"""The light suffix strip that offline drafting and the demo and reference agents share.

Drafting picks the words a persona says and the agents read them back, so both sides must
agree on which words meet ("cracked"/"crack", "damaged"/"damage").
"""

from __future__ import annotations


def stem(word: str) -> str:
    """Deliberately crude and stable: one suffix of -ing, -ed, -es, -s, -e is removed when at
    least three letters remain (never from a word ending in -ss)."""
    word = word.strip("'").removesuffix("'s")
    if word.endswith("ss"):
        return word
    for suffix in ("ing", "ed", "es", "s", "e"):
        if word.endswith(suffix) and len(word) - len(suffix) >= 3:
            return word[: -len(suffix)]
    return word
