"""Fifth round of generation speed: what is kept or searched faster gives what the plain
computation gives.

Each kept value is checked against a fresh computation for a second key that differs in
one part only (another skill, another tool), so a memo keyed on too little fails here;
each faster search is held to the code it replaced on generated text.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from agentflows.drafting.offline._mantle_facts import _audience_text, audience_text
from agentflows.generate._prewrite import prewrite
from agentflows.planning._mantle_tools import parameter_fields
from agentflows.review.rules._words import _STUCK, _may_repeat
from evalcore._yamlscan import analyze
from evalcore.definitions import load_project
from evalcore.definitions.skill_model import tool_keys
from evalcore.definitions.skill_model._code import code_facts, qualify
from evalcore.definitions.skill_model._tools import parameter_fields as fresh_parameter_fields
from evalcore.testdata import DOMAINS, roles_for
from evalcore.testdata._people import _count
from evalcore.testdata._shared_scan import Scan

REPO = Path(__file__).resolve().parents[1]
BANK = REPO / "examples" / "bank"


@pytest.fixture(scope="module")
def bank():
    return load_project(BANK)


# --- kept per loaded project ------------------------------------------------------------


def test_tool_keys_are_kept_per_skill_that_calls_the_tool(bank) -> None:
    tool = bank.mantle.skills["card_replace"].tools["block_card"]
    first = tool_keys(bank, tool, "card_replace")
    assert first == {"card_replace.card_blocked": True}
    first.clear()  # a caller spoiling its copy does not spoil the kept pairs
    for skill in ("card_replace", "check_balance"):  # the same tool, another skill
        fresh = {qualify(w.key, skill): w.value for w in code_facts(bank, tool).writes}
        assert tool_keys(bank, tool, skill) == fresh
    assert tool_keys(bank, tool, "check_balance") == {"check_balance.card_blocked": True}


def test_parameter_fields_are_kept_per_skill_and_tool(bank) -> None:
    defs = bank.mantle
    tools = defs.tools_for("card_replace")
    differ = 0
    for skill_id in ("card_replace", "dispute_charge", "card_replace"):
        for tool in tools.values():
            kept = parameter_fields(defs, skill_id, tool)
            assert kept == fresh_parameter_fields(defs.skills[skill_id], tool, defs.memory_names())
            kept.clear()
            assert parameter_fields(defs, skill_id, tool) == fresh_parameter_fields(
                defs.skills[skill_id], tool, defs.memory_names()
            )
    for tool in tools.values():
        one = fresh_parameter_fields(defs.skills["card_replace"], tool, defs.memory_names())
        differ += one != fresh_parameter_fields(
            defs.skills["dispute_charge"], tool, defs.memory_names()
        )
    assert differ  # the two skills fill some tool's arguments differently


def test_the_audience_text_is_kept_per_skill(bank) -> None:
    defs = bank.mantle
    texts = {}
    for skill in [*defs.skills.values(), *defs.skills.values()]:
        texts[skill.id] = audience_text(defs, skill)
        assert texts[skill.id] == _audience_text(defs, skill)
    assert len(set(texts.values())) == len(defs.skills)


def test_one_memory_entry_or_response_is_the_one_the_maps_hold(bank) -> None:
    defs = bank.mantle
    names, responses = defs.memory_names(), defs.all_responses()
    for key in [*names, "card_replace.nothing", "nothing"]:
        assert defs.memory_field(key) is names.get(key)
    for name in [*responses, "utter_nothing"]:
        assert defs.response(name) is responses.get(name)
    # a loader that resizes a skill's memory: the lookup sees the new entry
    skill = defs.skills["check_balance"]
    entry = next(iter(skill.memory.values()))
    skill.memory["extra_copy"] = entry
    try:
        assert defs.memory_field(entry.qualified) is entry
    finally:
        del skill.memory["extra_copy"]


# --- review before writing: a draft with nothing to fix is not copied -------------------


def _happy(bank) -> dict:
    """A committed bank case the review finds nothing in."""
    for case in sorted((REPO / "generated_cases" / "mantle").rglob("card_replace*.yml")):
        data = yaml.safe_load(case.read_text(encoding="utf-8"))
        if isinstance(data, dict) and "scenario" in data:
            from agentflows.generate._prewrite import review_findings

            if not review_findings(data, "mantle", bank):
                return data
    raise AssertionError("no clean committed card_replace case")


def test_a_clean_draft_is_handed_back_only_when_asked(bank) -> None:
    data = _happy(bank)
    assert not prewrite(data, "mantle", bank).fixes
    assert prewrite(data, "mantle", bank, copy_clean=False).data is data
    assert prewrite(data, "mantle", bank).data is not data


def test_a_draft_with_fixes_is_fixed_in_a_copy_either_way(bank) -> None:
    data = _happy(bank)
    data["scenario"]["goals"]["criteria"] = ["re_re_re_re_re_re_re_re_re_re"]
    before = yaml.safe_dump(data)
    for copy_clean in (True, False):
        outcome = prewrite(data, "mantle", bank, copy_clean=copy_clean)
        assert outcome.fixes and outcome.data is not data
        assert yaml.safe_dump(data) == before


# --- faster searches, held to the code they replaced ------------------------------------

_PIECES = st.sampled_from(["a", "b", "ab", "1", " ", "é", "😀", "\n", "xyz", "re_"])


@settings(max_examples=400, deadline=None)
@given(st.lists(_PIECES, max_size=40).map("".join) | st.text(max_size=60))
def test_a_text_that_may_not_repeat_never_matches_the_stuck_pattern(text: str) -> None:
    if _STUCK.search(text) is not None:
        assert _may_repeat(text)


def test_the_stuck_prefilter_passes_each_repeat_length() -> None:
    for size in range(2, 13):
        piece = "".join(chr(ord("a") + i) for i in range(size))
        for pad in ("", "x", "é "):
            text = pad + "one two " + piece * 4 + " three"
            assert _STUCK.search(text) is not None and _may_repeat(text)
            assert not _may_repeat(pad + "one two " + piece * 3 + " three")


_SCALAR = st.lists(
    st.sampled_from(list("ab :#,?[]{}&*!|>'\"%@`-.\n\t\r\0\x85\u2028\u2029\xa0\ufeffé😀\x7f"))
    | st.sampled_from(["---", "...", "\ud800", "\U0010ffff"]),
    max_size=12,
).map("".join)


@settings(max_examples=600, deadline=None)
@given(_SCALAR | st.text(max_size=30), st.booleans())
def test_the_scalar_analysis_is_pyyamls(scalar: str, unicode: bool) -> None:
    expected = yaml.emitter.Emitter(None, allow_unicode=unicode).analyze_scalar(scalar)
    assert analyze(scalar, unicode).__dict__ == expected.__dict__


def test_the_scalar_analysis_of_every_committed_case_text_is_pyyamls() -> None:
    emitter = yaml.emitter.Emitter(None, allow_unicode=True)
    seen = 0
    for path in sorted((REPO / "generated_cases").rglob("*.yml"))[:300]:
        stack = [yaml.safe_load(path.read_text(encoding="utf-8"))]
        while stack:
            item = stack.pop()
            if isinstance(item, dict):
                stack += [*item.keys(), *item.values()]
            elif isinstance(item, list):
                stack += item
            elif isinstance(item, str):
                seen += 1
                assert analyze(item, True).__dict__ == emitter.analyze_scalar(item).__dict__
    assert seen > 1000


_WORDS = sorted({w for words, _ in DOMAINS.values() for w in words})


@settings(max_examples=200, deadline=None)
@given(
    st.lists(st.sampled_from([*_WORDS, "s", "the", "X", "-", "pre", "\n", "."]), max_size=12),
    st.integers(min_value=0, max_value=200),
)
def test_a_domain_word_counts_what_its_pattern_found(words: list[str], cut: int) -> None:
    lowered = (" ".join(words) + " " + "".join(words[:3])).lower()
    # counted whole, and with a start shared with other texts (its scans kept apart)
    for scan in (Scan(lowered), Scan(lowered, lowered[:cut])):
        for word in _WORDS:
            expected = len(re.findall(rf"\b{re.escape(word)}s?\b", lowered))
            assert _count(word, scan) == expected


def test_roles_are_read_from_the_domain_words() -> None:
    software = DOMAINS["software"]
    assert roles_for("we ship an sdk and review each pull request") == software[1]


def test_mentions_are_kept_per_text_until_an_id_is_added(bank) -> None:
    from agentflows.review._vocab import Vocabulary, vocabulary

    vocab = vocabulary(bank)
    text = "The agent calls block_card, then utter_card_blocked, and says card_replace ends."
    first = vocab.mentions(text)
    assert first == vocab._mentions(text) and first
    first.clear()
    assert vocab.mentions(text) == vocab._mentions(text)
    small = Vocabulary()
    small.add("block_card", "tool")
    assert [m.id for m in small.mentions(text)] == ["block_card", "utter_card_blocked"]
    small.add("card_replace", "skill")  # a new id: the kept mentions are dropped
    ids = [m.id for m in small.mentions(text)]
    assert ids == ["block_card", "utter_card_blocked", "card_replace"]


def test_the_collector_is_handed_back_after_the_outermost_run() -> None:
    import gc

    from agentflows.collector import RUN_THRESHOLD, collector_paused

    before = gc.get_threshold()
    with collector_paused():
        assert gc.get_freeze_count() > 0
        assert gc.get_threshold()[0] >= RUN_THRESHOLD
        with collector_paused():  # a nested run
            pass
        assert gc.get_freeze_count() > 0  # still frozen: the outer run goes on
    assert gc.get_freeze_count() == 0 and gc.get_threshold() == before
    with pytest.raises(RuntimeError), collector_paused():
        raise RuntimeError("a failed run")
    assert gc.get_freeze_count() == 0 and gc.get_threshold() == before


def test_a_run_collects_on_its_frozen_heap_when_start_up_turned_the_collector_off() -> None:
    import gc

    from agentflows.collector import collector_paused

    gc.disable()  # as `casegen generate` does until its run starts
    try:
        with collector_paused():
            assert gc.isenabled() and gc.get_freeze_count() > 0
        assert not gc.isenabled() and gc.get_freeze_count() == 0
    finally:
        gc.enable()
    with collector_paused():
        pass
    assert gc.isenabled()


def test_generate_starts_with_the_collector_off_and_hands_it_back(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import gc

    import agentflows.generate
    from agentflows.cli import main
    from evalcore.errors import UserError

    seen: list[bool] = []

    def refused(*args: object, **kwargs: object) -> None:
        seen.append(gc.isenabled())
        raise UserError("stop here")

    monkeypatch.setattr(agentflows.generate, "build_request", refused)
    assert main(["generate", "all", "--model", "offline"]) == 2
    assert seen == [False] and gc.isenabled()


def test_the_collector_stays_on_after_a_run_that_only_the_start_up_pause_had_turned_off() -> None:
    """`--pr --run` runs cases after its generation run: the start-up pause must not outlast
    the run, while a caller that had the collector off keeps it off."""
    import gc

    from agentflows.collector import collector_paused, off_until_run

    after_run: list[bool] = []

    @off_until_run
    def command() -> None:
        assert not gc.isenabled()
        with collector_paused():
            assert gc.isenabled()
        after_run.append(gc.isenabled())

    assert gc.isenabled()
    command()
    assert after_run == [True] and gc.isenabled()
    gc.disable()
    try:
        command()  # the caller's own "off" is not the start-up pause
        assert after_run == [True, False] and not gc.isenabled()
    finally:
        gc.enable()
