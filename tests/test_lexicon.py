"""Every phrase of the lexicon, English and notation, matches the lines it names and misses
the ones it names; every word table holds the words it names and none it names as outside."""

from __future__ import annotations

import re

import pytest

from evalcore.lexicon import Phrase, Words, phrase, phrases, word_tables, words
from evalcore.lexicon.en import prose_acts, stated_values
from evalcore.lexicon.notation import mantle_conditions, mantle_references, reference_mentions

ENGLISH = phrases("en")
NOTATION = phrases("notation")
EVERY = [*ENGLISH, *NOTATION]
TABLES = [*word_tables("en"), *word_tables("notation")]


@pytest.mark.parametrize("item", EVERY, ids=[p.name for p in EVERY])
def test_each_phrase_matches_its_examples_and_misses_its_counterexamples(item: Phrase) -> None:
    unmatched = [line for line in item.matches if not item.regex.search(line)]
    wrongly = [line for line in item.misses if item.regex.search(line)]
    assert not unmatched, f"{item.name} does not match {unmatched}"
    assert not wrongly, f"{item.name} matches {wrongly}, which it must miss"


def test_the_english_lexicon_holds_the_simulator_and_judge_phrases() -> None:
    names = {p.name for p in ENGLISH}
    assert {"en.context.open_with", "en.agent.confirmation", "en.verdict.bare"} <= names
    assert all(p.name.startswith("en.") for p in ENGLISH)


def test_the_notation_lexicon_holds_format_shapes_apart_from_english() -> None:
    names = {p.name for p in NOTATION}
    assert {
        "notation.mantle_references.tool_exact",
        "notation.mantle_conditions.compared",
        "notation.date_masks.format_mask",
        "notation.yaml_literals.bool",
        "notation.secret_shapes.token",
    } <= names
    assert all(p.name.startswith("notation.") for p in NOTATION)
    assert not names & {p.name for p in ENGLISH}


def test_a_pattern_built_per_name_is_the_one_its_examples_pin() -> None:
    pinned = {p.name: p.regex for p in NOTATION}
    assert mantle_conditions.compared("order.status").pattern == (
        pinned["notation.mantle_conditions.compared"].pattern
    )
    assert mantle_conditions.equal("order.status").pattern == (
        pinned["notation.mantle_conditions.equal"].pattern
    )
    assert mantle_conditions.equal_short(re.escape("status")).pattern == (
        pinned["notation.mantle_conditions.equal_short"].pattern
    )
    assert mantle_references.block_reference("verify_identity").pattern == (
        pinned["notation.mantle_references.block"].pattern
    )
    built = mantle_references.field_mention("renewal_day", "plan.renewal_day")
    assert (built.pattern, built.flags) == (
        pinned["notation.mantle_references.field_mention"].pattern,
        pinned["notation.mantle_references.field_mention"].flags,
    )


def test_an_english_pattern_built_per_field_is_the_one_its_examples_pin() -> None:
    pinned = {p.name: p.regex for p in ENGLISH}
    for built, name in (
        (prose_acts.sets_field("device_label"), "en.prose_acts.sets_field"),
        (prose_acts.set_to_pick("new_flight"), "en.prose_acts.set_to_pick"),
    ):
        assert (built.pattern, built.flags) == (pinned[name].pattern, pinned[name].flags)


def test_a_mention_pattern_built_per_name_is_the_one_its_examples_pin() -> None:
    pinned = {p.name: p.regex for p in EVERY}
    for built, name in (
        (stated_values.named_value("service"), "en.stated_values.named"),
        (reference_mentions.tool_mention("find_order"), "notation.reference_mentions.tool"),
        (
            reference_mentions.field_mention("details_verified", "claim.details_verified"),
            "notation.reference_mentions.field",
        ),
    ):
        assert (built.pattern, built.flags) == (pinned[name].pattern, pinned[name].flags)


def test_a_phrase_without_examples_both_ways_is_refused() -> None:
    with pytest.raises(ValueError, match="examples it matches and examples it misses"):
        phrase("en.test.no_misses", r"\bhello\b", matches=("hello there",), misses=())


def test_a_name_declared_twice_is_refused() -> None:
    with pytest.raises(ValueError, match="declared twice"):
        phrase("en.context.stop", r"^Stop", re.I, matches=("Stop now",), misses=("Go",))


@pytest.mark.parametrize("table", TABLES, ids=[t.name for t in TABLES])
def test_each_word_table_holds_its_members_and_none_of_its_non_members(table: Words) -> None:
    missing = [w for w in table.members if w not in table.table]
    wrongly = [w for w in table.non_members if w in table.table]
    assert not missing, f"{table.name} lacks {missing}"
    assert not wrongly, f"{table.name} holds {wrongly}, which it must not"
    assert all(w == w.lower() for w in table.table), f"{table.name}: words are lower-case"


def test_no_two_word_tables_hold_the_same_words() -> None:
    """A table that means what another means is that table: one name, one place."""
    seen: dict[frozenset[str], str] = {}
    for table in TABLES:
        key = frozenset(table.table)
        assert key not in seen, f"{table.name} holds the same words as {seen.get(key)}"
        seen[key] = table.name


def test_a_word_table_is_handed_back_as_declared() -> None:
    ordered = ("the", "a", "an")
    assert words("en.test.ordered", ordered, members=("a",), non_members=("not",)) is ordered


def test_a_word_table_without_words_both_ways_is_refused() -> None:
    with pytest.raises(ValueError, match="holds and words it must not"):
        words("en.test.no_edge", frozenset({"a", "an"}), members=("a",), non_members=())
    with pytest.raises(ValueError, match="declared twice"):
        words("en.context.stop", frozenset({"a"}), members=("a",), non_members=("b",))
