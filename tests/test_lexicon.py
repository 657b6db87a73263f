"""Every phrase of the lexicon matches the lines it names and misses the ones it names."""

from __future__ import annotations

import re

import pytest

from evalcore.lexicon import Phrase, phrase, phrases

ENGLISH = phrases("en")


@pytest.mark.parametrize("item", ENGLISH, ids=[p.name for p in ENGLISH])
def test_each_phrase_matches_its_examples_and_misses_its_counterexamples(item: Phrase) -> None:
    unmatched = [line for line in item.matches if not item.regex.search(line)]
    wrongly = [line for line in item.misses if item.regex.search(line)]
    assert not unmatched, f"{item.name} does not match {unmatched}"
    assert not wrongly, f"{item.name} matches {wrongly}, which it must miss"


def test_the_english_lexicon_holds_the_simulator_and_judge_phrases() -> None:
    names = {p.name for p in ENGLISH}
    assert {"en.context.open_with", "en.agent.confirmation", "en.verdict.bare"} <= names
    assert all(p.name.startswith("en.") for p in ENGLISH)


def test_a_phrase_without_examples_both_ways_is_refused() -> None:
    with pytest.raises(ValueError, match="examples it matches and examples it misses"):
        phrase("en.test.no_misses", r"\bhello\b", matches=("hello there",), misses=())


def test_a_name_declared_twice_is_refused() -> None:
    with pytest.raises(ValueError, match="declared twice"):
        phrase("en.context.stop", r"^Stop", re.I, matches=("Stop now",), misses=("Go",))
