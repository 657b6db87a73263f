"""`near-duplicate`: a case that tests what another case already tests.

Similarity is `evalcore.dedupe.similarity` (facts — assertions, type, starting state — weigh
0.7, persona/prompt wording 0.3). Generation drops drafts at 0.85; review warns from 0.7: a
pair that asserts mostly the same facts about a similarly worded situation is worth a look
even when it is not an exact repeat (the five bank scenarios score 0.05-0.17 against each
other; a copy with a new persona name and one assertion changed scores about 0.8).
"""

from __future__ import annotations

from collections.abc import Iterator

from evalcore.dedupe import similarity

from .._views import CaseView, ReviewEnv
from ._registry import Hit, review_rule

#: Similarity at or above which review reports a near-duplicate.
NEAR_DUPLICATE_THRESHOLD = 0.7


@review_rule(
    "near-duplicate",
    severity="warning",
    summary=f"Similarity ≥ {NEAR_DUPLICATE_THRESHOLD} to a committed case of the project "
    "suite or to another reviewed case.",
)
def near_duplicate(case: CaseView, env: ReviewEnv) -> Iterator[Hit]:
    own = (str(case.path.resolve()) if case.path else "", case.base)
    best: tuple[float, str] = (0.0, "")
    for peer in env.peers:
        if peer.key == own:
            continue
        if peer.order is not None and peer.order >= env.order:
            continue  # a pair under review is reported once, on the later case
        score = similarity(case.fingerprint, peer.fingerprint)
        if score > best[0]:
            best = (score, peer.label)
    if best[0] >= NEAR_DUPLICATE_THRESHOLD:
        yield Hit(
            "",
            f"near-duplicate of {best[1]} (similarity {best[0]:.2f}): it asserts mostly the "
            "same facts about the same situation",
            suggestion="drop one, or make them differ in what they assert",
            value=best[1],
        )


__all__ = ["NEAR_DUPLICATE_THRESHOLD"]
