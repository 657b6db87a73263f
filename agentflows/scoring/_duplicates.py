"""Figure 5: files whose simulation context nearly repeats another file's.

Two contexts are near-duplicates when the Jaccard similarity of their word 3-shingles
(lowercased words, whitespace and punctuation normalised away) is at least
`NEAR_DUPLICATE_JACCARD`. Every pair of the suite is compared (n² over a few hundred files
is well under a second); pairs whose shingle counts differ by more than the threshold allows
are skipped without computing the intersection, since Jaccard ≤ min/max.
"""

from __future__ import annotations

import re

from ._cases import ScoredCase

#: Word 3-shingle Jaccard at or above which two simulation contexts are near-duplicates.
NEAR_DUPLICATE_JACCARD = 0.8
SHINGLE = 3
_WORD = re.compile(r"[a-z0-9']+")


def shingles(text: str, size: int = SHINGLE) -> frozenset[tuple[str, ...]]:
    words = _WORD.findall(text.lower())
    if len(words) < size:
        return frozenset([tuple(words)]) if words else frozenset()
    grams = [tuple(words[i : i + size]) for i in range(len(words) - size + 1)]
    return frozenset(grams)


def jaccard(a: frozenset[tuple[str, ...]], b: frozenset[tuple[str, ...]]) -> float:
    if not a and not b:
        return 1.0
    return len(a & b) / len(a | b)


def near_duplicate_pairs(
    cases: list[ScoredCase], threshold: float = NEAR_DUPLICATE_JACCARD
) -> list[tuple[str, str, float]]:
    """`(file, file, similarity)` for every near-duplicate pair of parsed cases."""
    sets = sorted(
        ((len(s), str(c.path), s) for c in cases if c.parsed for s in [shingles(c.context)]),
        key=lambda item: item[0],
    )
    pairs: list[tuple[str, str, float]] = []
    for i, (size, path, own) in enumerate(sets):
        for other_size, other_path, other in sets[i + 1 :]:
            if other_size and size / other_size < threshold:
                break  # sorted by size: every later set is larger still
            score = jaccard(own, other)
            if score >= threshold:
                pairs.append((path, other_path, round(score, 3)))
    return pairs


def files_in_pairs(pairs: list[tuple[str, str, float]]) -> set[str]:
    return {p for a, b, _ in pairs for p in (a, b)}


__all__ = [
    "NEAR_DUPLICATE_JACCARD",
    "files_in_pairs",
    "jaccard",
    "near_duplicate_pairs",
    "shingles",
]
