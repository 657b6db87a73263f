"""Majority vote over repeated judge samples (a flaky judge is sampled, not trusted once)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from ._types import JudgedVerdict


@dataclass(frozen=True)
class Vote:
    verdict: JudgedVerdict
    reason: str


@dataclass(frozen=True)
class Tally:
    verdict: JudgedVerdict
    reason: str
    votes: dict[str, int]
    disagreement: bool


def majority(votes: Sequence[Vote]) -> Tally:
    """The most common verdict; a tie for the top is `inconclusive`.

    The reason is that of the first sample with the winning verdict; on a tie it lists the
    tied verdicts, so the report says why the criterion could not be decided.
    """
    if not votes:
        raise ValueError("majority() needs at least one vote")
    counts = Counter(v.verdict for v in votes)
    ordered = counts.most_common()
    top = ordered[0][1]
    leaders = [verdict for verdict, count in ordered if count == top]
    tally = {
        verdict: counts[verdict] for verdict in ("pass", "fail", "inconclusive") if counts[verdict]
    }
    disagreement = len(counts) > 1
    if len(leaders) > 1:
        shown = ", ".join(f"{counts[v]} {v}" for v in sorted(leaders))
        return Tally("inconclusive", f"the judge samples tied ({shown})", tally, disagreement)
    winner = leaders[0]
    reason = next(v.reason for v in votes if v.verdict == winner)
    return Tally(winner, reason, tally, disagreement)


__all__ = ["Tally", "Vote", "majority"]
