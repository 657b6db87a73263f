"""Matching several patterns to distinct events, in order or in any order.

`sequencing` and `tools_within_one_turn` with `ordered: true` need a subsequence: pattern k
matched by an event strictly after pattern k-1's. Taking the earliest possible match at each
step is optimal there (any later choice only shrinks what is left for the next steps), so a
greedy scan decides it exactly. `ordered: false` takes distinct events for distinct calls
greedily too, as Rasa does: an early call can take the only event a later call fits, and then
the assertion fails in Rasa, so it fails here.
"""

from __future__ import annotations

from collections.abc import Sequence

from ._events import Event
from ._patterns import Pattern


def match_greedy(
    patterns: Sequence[Pattern], events: Sequence[Event], *, ordered: bool
) -> tuple[list[Event], int | None]:
    """Rasa's `_match_calls`: each pattern, in turn, takes the first event not yet taken that
    fits it (with `ordered`, only events after the previous pattern's); no backtracking, so an
    early pattern can take the only event a later one fits. Returns (matched events, index of
    the first unmatched pattern or None when all matched)."""
    used: set[int] = set()
    matched: list[Event] = []
    start = 0
    for number, pattern in enumerate(patterns):
        found = None
        for at in range(start if ordered else 0, len(events)):
            event = events[at]
            if event.index not in used and pattern.matches(event):
                found = event
                used.add(event.index)
                start = at + 1
                break
        if found is None:
            return matched, number
        matched.append(found)
    return matched, None
