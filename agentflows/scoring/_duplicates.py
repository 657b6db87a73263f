"""Figure 5: files whose simulation context nearly repeats another file's, to check the same.

Two contexts are near-duplicates when the Jaccard similarity of their word 3-shingles
(lowercased words, whitespace and punctuation normalised away) is at least
`NEAR_DUPLICATE_JACCARD`. Every pair of the suite is compared (n² over a few hundred files
is well under a second); pairs whose shingle counts differ by more than the threshold allows
are skipped without computing the intersection, since Jaccard ≤ min/max.

A pair counts only when the two files also check mostly the same events (Jaccard of their
checks at least `SAME_CHECKS_JACCARD`): a happy path and its refusal at the confirmation
gate are the same situation up to one answer ("agree" / "decline"), and that answer is the
test, so their contexts nearly repeat while one asserts the call and its writes and the
other that neither came. Two files that say the same and check the same are the repeat the
figure is for.
"""

from __future__ import annotations

import json
import re

from ._cases import ScoredCase

#: Word 3-shingle Jaccard at or above which two simulation contexts are near-duplicates.
NEAR_DUPLICATE_JACCARD = 0.8
#: Jaccard of two files' checks at or above which they check the same (see the docstring).
SAME_CHECKS_JACCARD = 0.5
SHINGLE = 3
_WORD = re.compile(r"[a-z0-9']+")


def shingles(text: str, size: int = SHINGLE) -> frozenset[tuple[str, ...]]:
    words = _WORD.findall(text.lower())
    if len(words) < size:
        return frozenset([tuple(words)]) if words else frozenset()
    grams = [tuple(words[i : i + size]) for i in range(len(words) - size + 1)]
    return frozenset(grams)


def jaccard(a: frozenset[object], b: frozenset[object]) -> float:
    if not a and not b:
        return 1.0
    return len(a & b) / len(a | b)


def checked(case: ScoredCase) -> frozenset[str]:
    """The case's checks, each as one canonical string (`memory_was_set` per entry)."""
    out = set()
    for key, body in case.checks():
        entries = body if key.startswith("memory_was") and isinstance(body, list) else [body]
        for entry in entries:
            out.add(f"{key}:{json.dumps(entry, sort_keys=True, default=str)}")
    return frozenset(out)


def near_duplicate_pairs(
    cases: list[ScoredCase], threshold: float = NEAR_DUPLICATE_JACCARD
) -> list[tuple[str, str, float]]:
    """`(file, file, similarity)` for every near-duplicate pair of parsed cases."""
    parsed = [c for c in cases if c.parsed]
    checks = {str(c.path): checked(c) for c in parsed}
    sets = sorted(
        ((len(s), str(c.path), s) for c in parsed for s in [shingles(c.context)]),
        key=lambda item: item[0],
    )
    pairs: list[tuple[str, str, float]] = []
    for i, (size, path, own) in enumerate(sets):
        for other_size, other_path, other in sets[i + 1 :]:
            if other_size and size / other_size < threshold:
                break  # sorted by size: every later set is larger still
            score = jaccard(own, other)
            same = jaccard(checks[path], checks[other_path]) >= SAME_CHECKS_JACCARD
            if score >= threshold and same:
                pairs.append((path, other_path, round(score, 3)))
    return pairs


def files_in_pairs(pairs: list[tuple[str, str, float]]) -> set[str]:
    return {p for a, b, _ in pairs for p in (a, b)}


__all__ = [
    "NEAR_DUPLICATE_JACCARD",
    "SAME_CHECKS_JACCARD",
    "checked",
    "files_in_pairs",
    "jaccard",
    "near_duplicate_pairs",
    "shingles",
]
