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
from typing import Any

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


def _canon(value: Any) -> str:
    return _ENCODER.encode(value)


def _shingles(text: str) -> frozenset[str]:
    words = _WORD.findall(text.lower())
    return frozenset(f"{a} {b}" for a, b in pairwise(words)) or frozenset(words)


def fingerprint(data: Any, dialect: str) -> Fingerprint:
    """Facts and words of a case document of `dialect` (tolerates malformed data)."""
    facts: set[str] = set()
    text = ""
    if not isinstance(data, dict):
        return Fingerprint(frozenset(), frozenset())
    if dialect == "mantle":
        scenario = data.get("scenario") if isinstance(data.get("scenario"), dict) else {}
        facts.add("type:" + str(scenario.get("type")))
        goals = scenario.get("goals") if isinstance(scenario.get("goals"), dict) else {}
        for item in goals.get("assertions") or []:
            facts.add("assert:" + _canon(item))
        setup = scenario.get("setup") if isinstance(scenario.get("setup"), dict) else {}
        for key, value in (setup.get("initial_slots") or {}).items():
            facts.add(f"slot:{key}={_canon(value)}")
        text = str(scenario.get("simulation_context", ""))
    elif dialect == "anychat":
        scenario = data.get("scenario") if isinstance(data.get("scenario"), dict) else {}
        facts.add("start:" + _canon(scenario.get("start")))
        expect = data.get("expect") if isinstance(data.get("expect"), dict) else {}
        checks = expect.get("checks") if isinstance(expect.get("checks"), dict) else {}
        for name, value in checks.items():
            facts.add(f"check:{name}={_canon(value)}")
        turns = data.get("turns") if isinstance(data.get("turns"), list) else []
        for turn in turns:
            if not isinstance(turn, str):
                facts.add("turn:" + _canon(turn))
        text = (
            " ".join(t for t in turns if isinstance(t, str))
            + " "
            + str(
                (data.get("brief") or {}).get("scenario", "")
                if isinstance(data.get("brief"), dict)
                else ""
            )
        )
    elif dialect == "base44":
        entries = data.get("prompts") if isinstance(data.get("prompts"), list) else [data]
        for entry in entries:
            if not isinstance(entry, dict):
                continue
            for check in entry.get("checks") or []:
                facts.add("check:" + _canon(check))
            facts.add("skills:" + _canon(sorted(map(str, entry.get("expectedSkills") or []))))
            text += " " + str(entry.get("prompt", ""))
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
