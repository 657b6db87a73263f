"""A suite's cases spread over its skills: no skill takes most of them by variations.

A skill with a question the user answers gets a details-up-front case, a correction, a
detour, an unclear answer and a request for a person on top of its branches and gates,
while a skill that answers from its prose gets one happy path: left alone, one skill of
nine held 9 of 23 cases only because it was the easy one to vary. So where one skill's
planned cases are over a third of the run's and another skill has only one, that skill's
variations go, least valuable first (the plan's priority), until it holds under a third. Its
happy paths (one per branch), refusals, failures, cues, thresholds and the project's
once-only cases (out of scope, adversarial) always stay: they are what the skill does.
"""

from __future__ import annotations

from collections import Counter

from ._behavior import Behavior

#: The kinds any skill with a question gets, whatever it does: trimmed first.
VARIATIONS = frozenset({"out_of_order", "correction", "digression", "ambiguity", "escalation"})


def spread(behaviors: list[Behavior]) -> tuple[list[Behavior], list[Behavior]]:
    """(kept, trimmed): `behaviors` of several skills (see module doc), in their order."""
    kept = list(behaviors)
    trimmed: list[Behavior] = []
    while True:
        counts = Counter(b.source for b in kept)
        if len(counts) < 3:
            break
        (top, most), *_ = counts.most_common(1)
        others_one = any(n <= 1 for source, n in counts.items() if source != top)
        if 3 * most < len(kept) or not others_one:
            break
        variations = [b for b in kept if b.source == top and str(b.facts.get("kind")) in VARIATIONS]
        if not variations:
            break
        least = max(variations, key=lambda b: b.priority)
        kept.remove(least)
        trimmed.append(least)
    return kept, trimmed


__all__ = ["VARIATIONS", "spread"]
