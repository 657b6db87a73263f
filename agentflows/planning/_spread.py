"""A suite's cases spread over its skills: no skill takes most of them by variations.

A skill with a question the user answers gets a details-up-front case, a correction, a
detour, an unclear answer and a request for a person on top of its branches and gates,
while a skill that answers from its prose gets one happy path: left alone, one skill of
nine held 9 of 23 cases only because it was the easy one to vary. So where one skill's
planned cases are over a third of the run's and another skill has only one, that skill's
variations go, least valuable first (the plan's priority), until it holds under a third or
has no more variations than another skill has. Its happy paths (one per branch), refusals,
failures, cues, thresholds and the project's once-only cases (out of scope, adversarial)
always stay: they are what the skill does. A skill that is large because it has many
branches (one answer per country, say) keeps the variations other skills get too: it is
large by what it does, not because it was the easy one to vary.
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
        variations = _variations(kept, top)
        most_elsewhere = max(len(_variations(kept, source)) for source in counts if source != top)
        if len(variations) <= most_elsewhere:
            break
        least = max(variations, key=lambda b: b.priority)
        kept.remove(least)
        trimmed.append(least)
    return kept, trimmed


def _variations(behaviors: list[Behavior], source: str) -> list[Behavior]:
    return [b for b in behaviors if b.source == source and str(b.facts.get("kind")) in VARIATIONS]


__all__ = ["VARIATIONS", "spread"]
