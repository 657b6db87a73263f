"""The case-quality benchmark reads a suite as a reviewer does: the bank's committed suite
meets the coverage figures, and a planted fault shows in its own figure."""

from __future__ import annotations

import asyncio
import re
import shutil
from pathlib import Path

import yaml

from benchmarks.case_quality import measure

REPO = Path(__file__).resolve().parents[1]
BANK = REPO / "examples" / "bank"
SUITE = REPO / "generated_cases" / "mantle"


def test_the_bank_suite_covers_every_routable_skill_without_ids_or_twins() -> None:
    figures = asyncio.run(measure(BANK, SUITE, None, runs=False))
    assert figures["cases"] >= 10
    assert figures["routable_without_goal"] == []
    assert figures["engine_managed_targets"] == []
    assert figures["ids_in_user_words"] == []
    assert figures["identical_assertion_pairs"] == []
    assert figures["gates_refused"] == 1.0
    assert figures["assertions"] > 100 and figures["assertions_without_why"] == 0


def test_a_planted_fault_shows_in_its_figure(tmp_path: Path) -> None:
    suite = tmp_path / "suite"
    shutil.copytree(SUITE, suite)
    happy = sorted(suite.glob("check_balance/*happy_path.yml"))
    for path in happy:
        path.unlink()
    twin = sorted(suite.glob("card_replace/*.yml"))[0]
    shutil.copy(twin, twin.with_name("twin.yml"))
    opener = sorted(suite.glob("dispute_charge/*.yml"))[0]
    data = yaml.safe_load(opener.read_text(encoding="utf-8"))
    data["scenario"]["simulation_context"] += 'Open with: "I need dispute_charge now."\n'
    opener.write_text(yaml.safe_dump(data, sort_keys=False), encoding="utf-8")
    figures = asyncio.run(measure(BANK, suite, None, runs=False))
    assert happy and figures["routable_without_goal"] == ["check_balance"]
    assert len(figures["identical_assertion_pairs"]) == 1
    assert figures["ids_in_user_words"] == [str(opener.relative_to(suite))]
    # the rewritten file lost its comments: each of its assertions has no why now
    assert figures["assertions_without_why"] > 0


def test_an_id_in_words_counts_only_where_the_description_does_not_say_them(
    tmp_path: Path,
) -> None:
    project = tmp_path / "bank"
    shutil.copytree(BANK, project)
    skill = project / "skills" / "card_replace" / "skill.md"
    text = skill.read_text(encoding="utf-8").replace("name: Replace a card", "name: Card Replace")
    suite = tmp_path / "suite"
    shutil.copytree(SUITE, suite)
    opener = sorted(suite.glob("card_replace/*.yml"))[0]
    data = yaml.safe_load(opener.read_text(encoding="utf-8"))
    data["scenario"]["simulation_context"] += 'Open with: "I need a card replace."\n'
    opener.write_text(yaml.safe_dump(data, sort_keys=False), encoding="utf-8")
    skill.write_text(text, encoding="utf-8")
    flagged = asyncio.run(measure(project, suite, None, runs=False))["ids_in_user_words"]
    assert flagged == [str(opener.relative_to(suite))]
    # the description's own wording is a person's words, whatever the id spells
    skill.write_text(text.replace("Card replacement:", "Card replace:"), encoding="utf-8")
    assert asyncio.run(measure(project, suite, None, runs=False))["ids_in_user_words"] == []


def test_a_one_word_id_the_description_uses_is_a_persons_word(tmp_path: Path) -> None:
    """`calendar` is a skill id and a word: where the description says it ("The executive's
    own calendar: ..."), an opener saying it is not an id in user words; elsewhere it is."""
    project = tmp_path / "bank"
    shutil.copytree(BANK, project)
    (project / "skills" / "check_balance").rename(project / "skills" / "balance")
    for path in project.rglob("*"):
        if path.is_file() and path.suffix in {".md", ".py", ".yml", ".yaml"}:
            old = path.read_text(encoding="utf-8")
            path.write_text(old.replace("check_balance", "balance"), encoding="utf-8")
    skill = project / "skills" / "balance" / "skill.md"
    text = skill.read_text(encoding="utf-8")
    suite = tmp_path / "suite"
    shutil.copytree(SUITE, suite)
    opener = sorted(suite.glob("card_replace/*.yml"))[0]
    data = yaml.safe_load(opener.read_text(encoding="utf-8"))
    data["scenario"]["simulation_context"] += 'Open with: "What is my balance?"\n'
    opener.write_text(yaml.safe_dump(data, sort_keys=False), encoding="utf-8")
    said = re.search(r"description: >?\n?\s*(.*)", text)
    assert said is not None and "balance" in said.group(1).lower()
    flagged = asyncio.run(measure(project, suite, None, runs=False))["ids_in_user_words"]
    assert str(opener.relative_to(suite)) not in flagged
    skill.write_text(re.sub(r"(?i)balance", "funds", text), encoding="utf-8")
    flagged = asyncio.run(measure(project, suite, None, runs=False))["ids_in_user_words"]
    assert str(opener.relative_to(suite)) in flagged
    # a name longer than the id that says it ("Check a balance") makes it a word too
    named = re.sub(r"(?i)balance", "funds", text).replace(
        "name: Check a funds", "name: Check a balance"
    )
    skill.write_text(named, encoding="utf-8")
    flagged = asyncio.run(measure(project, suite, None, runs=False))["ids_in_user_words"]
    assert str(opener.relative_to(suite)) not in flagged
