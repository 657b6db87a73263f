"""Near-duplicate detection for cases, within a batch and against a committed suite.

A case's fingerprint has two parts: its *facts* (what it asserts and how it starts: each
assertion/check in canonical JSON, its type, its seeded state) and its *words* (the persona or
prompt text, as a set of word pairs). Two cases that assert the same facts about the same kind
of conversation are duplicates even when phrased differently; two cases with different
assertions are not, however similar their wording.

Where the planner knows the path a case walks (`path`, the behaviour's path id), the path
decides first (`same_case`): cases on different paths are never duplicates, whatever their
words or assertions; a case whose path is unknown (a hand-written file) duplicates a planned
one only with exactly the same facts.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from itertools import pairwise
from typing import Any, Protocol

_WORD = re.compile(r"[a-z0-9']+")

#: Similarity at or above which a case counts as a duplicate of another.
DUPLICATE_THRESHOLD = 0.85


@dataclass(frozen=True)
class Fingerprint:
    facts: frozenset[str]
    words: frozenset[str]


#: `json.dumps(value, sort_keys=True, ensure_ascii=False, default=str)`, with the encoder
#: built once instead of for every call (`dumps` builds one whenever options are given).
_ENCODER = json.JSONEncoder(sort_keys=True, ensure_ascii=False, default=str)


def canon(value: Any) -> str:
    """`value` as canonical JSON: one fact of a fingerprint (see `Dialect.fingerprint_facts`)."""
    return _ENCODER.encode(value)


def _shingles(text: str) -> frozenset[str]:
    words = _WORD.findall(text.lower())
    return frozenset(f"{a} {b}" for a, b in pairwise(words)) or frozenset(words)


class _Facts(Protocol):
    """What `fingerprint` asks of a dialect (`evalcore.dialects.Dialect`)."""

    def fingerprint_facts(self, data: dict[str, Any]) -> tuple[set[str], str]: ...


def fingerprint(data: Any, dialect: _Facts) -> Fingerprint:
    """Facts and words of a case document of `dialect` (tolerates malformed data)."""
    if not isinstance(data, dict):
        return Fingerprint(frozenset(), frozenset())
    facts, text = dialect.fingerprint_facts(data)
    return Fingerprint(frozenset(facts), _shingles(text))


def _jaccard(a: frozenset[str], b: frozenset[str]) -> float:
    if not a and not b:
        return 1.0
    return len(a & b) / len(a | b)


def similarity(a: Fingerprint, b: Fingerprint) -> float:
    """0..1; facts weigh more than wording."""
    return round(0.7 * _jaccard(a.facts, b.facts) + 0.3 * _jaccard(a.words, b.words), 4)


def is_duplicate(a: Fingerprint, b: Fingerprint) -> bool:
    return similarity(a, b) >= DUPLICATE_THRESHOLD


def same_case(
    a: Fingerprint, b: Fingerprint, *, path_a: str | None = None, path_b: str | None = None
) -> bool:
    """Duplicate test by path identity first, then by facts (see the module docstring)."""
    if path_a is not None and path_b is not None:
        return path_a == path_b and is_duplicate(a, b)
    if path_a is not None or path_b is not None:
        return bool(a.facts) and a.facts == b.facts and is_duplicate(a, b)
    return is_duplicate(a, b)
