"""Matching several patterns to distinct events, in order or in any order.

`sequencing` and `tools_within_one_turn` with `ordered: true` need a subsequence: pattern k
matched by an event strictly after pattern k-1's. Taking the earliest possible match at each
step is optimal there (any later choice only shrinks what is left for the next steps), so a
greedy scan decides it exactly. `ordered: false` needs distinct events for distinct calls in any
order, which greedy can get wrong (an early call can take the only event a later call fits);
that is a bipartite matching, solved with augmenting paths (calls and events are few).
"""

from __future__ import annotations

from collections.abc import Sequence

from ._events import Event
from ._patterns import Pattern


def match_in_order(
    patterns: Sequence[Pattern], events: Sequence[Event], *, after: int = -1
) -> tuple[list[Event], int | None]:
    """Earliest in-order matches; returns (matched events, index of the first unmatched
    pattern or None when all matched)."""
    matched: list[Event] = []
    position = after
    for number, pattern in enumerate(patterns):
        event = pattern.find(events, after=position)
        if event is None:
            return matched, number
        matched.append(event)
        position = event.index
    return matched, None


def match_any_order(patterns: Sequence[Pattern], events: Sequence[Event]) -> dict[int, Event]:
    """A maximum assignment of distinct events to patterns: {pattern number: event}."""
    fits = [[e for e in events if p.matches(e)] for p in patterns]
    owner: dict[int, int] = {}  # event index -> pattern number

    def augment(number: int, seen: set[int]) -> bool:
        for event in fits[number]:
            if event.index in seen:
                continue
            seen.add(event.index)
            if event.index not in owner or augment(owner[event.index], seen):
                owner[event.index] = number
                return True
        return False

    for number in range(len(patterns)):
        augment(number, set())
    by_index = {e.index: e for e in events}
    return {number: by_index[index] for index, number in owner.items()}
