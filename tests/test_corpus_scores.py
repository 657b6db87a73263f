"""The offline generator's suites on our corpus of Mantle projects meet the issue's figures.

`benchmarks/corpus.py` runs `casegen generate all --model offline` on every project of
`tests/data/corpus` and scores each suite with `casegen score` (docs/scoring.md). The goals
are the ones `casegen score --check` enforces: happy paths asserting success 100%, a refusal
case per gated tool 100%, decisive ≥ 95%, filler 0, near-duplicates ≤ 5%, Rasa-schema valid
100%, review errors 0.
"""

from __future__ import annotations

import pytest

from benchmarks.corpus import score_corpus


@pytest.fixture(scope="module")
def scores():
    found = score_corpus()
    assert len(found) >= 6, "the corpus has at least six projects"
    return found


def test_every_corpus_suite_meets_every_goal(scores) -> None:
    misses = {s.project: {k: s.figures[k] for k in s.misses()} for s in scores if s.misses()}
    assert not misses, misses


def test_the_suites_are_not_empty_and_cover_several_behaviours(scores) -> None:
    for score in scores:
        assert score.files >= 10
        # no sad path where every tool that can fail fails only on an outside service's
        # answer (no case decides that): happy paths, edge cases and one more kind at least
        assert {"happy_path", "edge_case"} <= set(score.types), score.types
        assert len(score.types) >= 3, score.types
