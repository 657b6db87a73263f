"""'Did you mean' suggestions for ids, shared by lint, schema errors and repair."""

from __future__ import annotations

import difflib
from collections.abc import Iterable

#: Similarity cut-off for suggestions; repair requires a *unique* match at the stricter cut-off.
SUGGEST_CUTOFF = 0.6
REPAIR_CUTOFF = 0.75


def close_matches(value: str, candidates: Iterable[str], *, cutoff: float = SUGGEST_CUTOFF,
                  limit: int = 3) -> list[str]:
    """Candidates close to `value`, best first; case differences count as close."""
    pool = sorted(set(candidates))
    if not pool or not isinstance(value, str):
        return []
    lowered = {c.lower(): c for c in pool}
    exact_ci = lowered.get(value.lower())
    matches = difflib.get_close_matches(value.lower(), list(lowered), n=limit, cutoff=cutoff)
    found = [lowered[m] for m in matches]
    if exact_ci and exact_ci not in found:
        found.insert(0, exact_ci)
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
        ((difflib.SequenceMatcher(None, value.lower(), c.lower()).ratio(), c) for c in pool),
        reverse=True,
    )
    best = [c for score, c in scored if score >= REPAIR_CUTOFF]
    if len(best) == 1:
        return best[0]
    if len(best) > 1 and scored[0][0] - scored[1][0] >= 0.1:
        return scored[0][1]
    return None
