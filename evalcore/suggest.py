"""'Did you mean' suggestions for ids, shared by lint, schema errors and repair."""

from __future__ import annotations

import difflib
import re
from collections import Counter
from collections.abc import Iterable
from functools import lru_cache

from .lexicon.en.field_name_words import ID_NEGATING_PREFIXES as _NEGATING_PREFIXES
from .lexicon.en.field_name_words import ID_NEGATIONS as _NEGATIONS

#: Similarity cut-off for suggestions; repair requires a *unique* match at the stricter cut-off.
SUGGEST_CUTOFF = 0.6
REPAIR_CUTOFF = 0.75


def _comparable(value: str, candidate: str) -> tuple[str, str]:
    """The parts of two ids worth comparing.

    Namespaced ids (`card_replace.order_id`) that share their namespace are compared by their
    last segment only, so a long common prefix does not make unrelated keys look alike.
    """
    if "." in value and "." in candidate:
        value_ns, _, value_key = value.rpartition(".")
        cand_ns, _, cand_key = candidate.rpartition(".")
        if value_ns.lower() == cand_ns.lower():
            return value_key.lower(), cand_key.lower()
    return value.lower(), candidate.lower()


_TOKEN = re.compile(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])|\d+")


def _tokens(value: str) -> list[str]:
    return [t.lower() for t in _TOKEN.findall(value)]


@lru_cache(maxsize=16384)
def opposite(value: str, candidate: str) -> bool:
    """True when the two ids differ only by a negation (`order_placed` /
    `order_not_placed`, `block_card` / `unblock_card`, `eligible` / `ineligible`)."""
    a, b = _tokens(value), _tokens(candidate)
    if a == b:
        return False
    extra_a, extra_b = Counter(a) - Counter(b), Counter(b) - Counter(a)
    for extra, missing in ((extra_a, extra_b), (extra_b, extra_a)):
        if not missing and set(extra) <= _NEGATIONS:
            return True  # one holds every word of the other, plus only negations
    if len(a) == len(b):
        diffs = [(x, y) for x, y in zip(a, b, strict=True) if x != y]
        if len(diffs) == 1:
            short_word, long_word = sorted(diffs[0], key=len)
            prefix = long_word[: len(long_word) - len(short_word)]
            if (
                len(short_word) >= 4
                and long_word.endswith(short_word)
                and prefix in _NEGATING_PREFIXES
            ):
                return True
    return False


@lru_cache(maxsize=16384)  # a pure function of two ids; a verification asks it per play
def similarity(value: str, candidate: str) -> float:
    a, b = _comparable(value, candidate)
    return difflib.SequenceMatcher(None, a, b).ratio()


def close_matches(
    value: str, candidates: Iterable[str], *, cutoff: float = SUGGEST_CUTOFF, limit: int = 3
) -> list[str]:
    """Candidates close to `value`, best first; case differences count as close."""
    pool = sorted(set(candidates))
    if not pool or not isinstance(value, str):
        return []
    exact_ci = [c for c in pool if c.lower() == value.lower()]
    scored = sorted(
        ((similarity(value, c), c) for c in pool if c not in exact_ci and not opposite(value, c)),
        key=lambda p: -p[0],
    )
    best = scored[0][0] if scored else 0.0
    # Only offer candidates about as close as the best one: a near-exact match should not
    # come with a list of merely similar ids.
    floor = max(cutoff, best - 0.15)
    found = exact_ci + [c for score, c in scored if score >= floor]
    return found[:limit]


def did_you_mean(value: str, candidates: Iterable[str], *, what: str = "") -> str | None:
    """A suggestion sentence: "did you mean 'x'?" or, failing that, the valid choices."""
    pool = sorted(set(candidates))
    if not pool:
        return f"no {what or 'value'}s are defined" if what else None
    matches = close_matches(value, pool) if isinstance(value, str) else []
    if matches:
        quoted = " or ".join(f"'{m}'" for m in matches)
        return f"did you mean {quoted}?"
    shown = ", ".join(pool[:12]) + (", …" if len(pool) > 12 else "")
    return f"valid {what + 's' if what else 'values'}: {shown}"


def unique_close_match(value: str, candidates: Iterable[str]) -> str | None:
    """The one candidate safely close to `value`, or None when there are zero or several.

    Repair uses this: it rewrites an id only when exactly one real id is close enough that a
    person would agree it was a typo.
    """
    pool = sorted(set(candidates))
    if not isinstance(value, str) or not pool:
        return None
    ci = [c for c in pool if c.lower() == value.lower()]
    if len(ci) == 1:
        return ci[0]
    scored = sorted(
        ((similarity(value, c), c) for c in pool if not opposite(value, c)), reverse=True
    )
    best = [c for score, c in scored if score >= REPAIR_CUTOFF]
    if len(best) == 1:
        return best[0]
    if len(best) > 1 and scored[0][0] - scored[1][0] >= 0.1:
        return scored[0][1]
    return None
