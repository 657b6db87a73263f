"""Scoring a Mantle scenario suite the way a Rasa engineer reviews one: seven figures.

    score = await score_suite([Path("out/mantle")], Path("examples/bank"))
    score.to_json()["figures"]["happy"]["value"]
    score.misses()   # figures below the goals in FIGURES

Definitions: docs/scoring.md. `casegen score` and `python -m benchmarks corpus` print them.
"""

from ._cases import ScoredCase
from ._duplicates import NEAR_DUPLICATE_JACCARD
from ._goals import asserts_success, refuses
from ._score import (
    FIGURE_BY_KEY,
    FIGURES,
    Figure,
    FigureValue,
    ProjectScore,
    score_suite,
    score_suite_sync,
)
from .filler import FILLER_PATTERNS
from .skills import answers_only, skill_signals

__all__ = [
    "FIGURES",
    "FIGURE_BY_KEY",
    "FILLER_PATTERNS",
    "NEAR_DUPLICATE_JACCARD",
    "Figure",
    "FigureValue",
    "ProjectScore",
    "ScoredCase",
    "answers_only",
    "asserts_success",
    "refuses",
    "score_suite",
    "score_suite_sync",
    "skill_signals",
]
