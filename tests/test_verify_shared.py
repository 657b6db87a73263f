"""What verification plays share per loaded project (classified prose, a field's value
words, suggestion scores) changes no play: a mutant's play leaves the reference agent's
next play as it was, plays give the same result in any order, a caller's changes to what it
got do not reach the next caller, and a changed project is read afresh."""

from __future__ import annotations

import asyncio
import shutil
from pathlib import Path

import pytest

from agentflows.generate._verify_play import Played, play, reference, run_case
from evalcore.agents.reference import mutants
from evalcore.agents.reference._mantle_engine import field_words
from evalcore.agents.reference._prose import prose_items
from evalcore.agents.reference._target import load
from evalcore.definitions.skill_model import skill_model
from evalcore.suggest import close_matches
from evalcore.yamlio import load_yaml

BANK = Path(__file__).resolve().parents[1] / "examples" / "bank"
SCENARIO = BANK / "eval" / "scenarios" / "card_replace_stolen.yml"


def _play(project, mutant=None) -> Played:
    data = load_yaml(SCENARIO.read_text(encoding="utf-8"))
    case = run_case(data, SCENARIO, "mantle")[0]
    return asyncio.run(play(case, reference(project, mutant), project))


def _same(a: Played, b: Played) -> bool:
    return (a.status, a.events, a.transcript, a.assertions, a.notes) == (
        b.status,
        b.events,
        b.transcript,
        b.assertions,
        b.notes,
    )


def test_mutant_plays_leave_the_reference_play_and_each_other_unchanged():
    project = load(BANK)
    found = [m for m in mutants(project) if m.equivalent is None and m.skill == "card_replace"]
    assert len(found) >= 3
    before = _play(project)
    assert before.status == "passed"
    first = {m.id: _play(project, m) for m in found}
    assert any(p.status == "failed" for p in first.values())  # the faults do play
    after = _play(project)
    assert _same(before, after)
    for mutant in reversed(found):  # another order, after every other mutant has played
        assert _same(first[mutant.id], _play(project, mutant)), mutant.id


def test_a_callers_changes_to_the_prose_items_do_not_reach_the_next_caller():
    project = load(BANK)
    skill = project.mantle.skills["card_replace"]
    model = skill_model(project, "card_replace")
    items = prose_items(skill, model)
    kept = list(items)
    items.append(items[0])
    items.clear()
    assert prose_items(skill, model) == kept
    assert kept  # the skill's prose does say what to do


def _copy(tmp_path: Path) -> Path:
    root = tmp_path / "bank"
    shutil.copytree(BANK, root, ignore=shutil.ignore_patterns("eval", "results"))
    return root


def test_a_changed_project_is_read_afresh(tmp_path: Path):
    root = _copy(tmp_path)
    project = load(root)
    words = field_words(project.mantle, "card_replace.shipping_method")
    assert set(words.values) == {"standard", "express"}
    model = skill_model(project, "card_replace")
    items = prose_items(project.mantle.skills["card_replace"], model)

    memory = root / "skills" / "card_replace" / "memory.yml"
    memory.write_text(
        memory.read_text(encoding="utf-8").replace(
            "[standard, express]", "[standard, express, overnight]"
        ),
        encoding="utf-8",
    )
    skill_md = root / "skills" / "card_replace" / "skill.md"
    skill_md.write_text(
        skill_md.read_text(encoding="utf-8") + "\nAsk whether they want a receipt.\n",
        encoding="utf-8",
    )
    changed = load(root)
    assert changed is not project
    again = field_words(changed.mantle, "card_replace.shipping_method")
    assert set(again.values) == {"standard", "express", "overnight"}
    assert set(field_words(project.mantle, "card_replace.shipping_method").values) == {
        "standard",
        "express",
    }
    later = prose_items(changed.mantle.skills["card_replace"], skill_model(changed, "card_replace"))
    assert later != items
    assert any("receipt" in i.sentence for i in later)
    assert not any("receipt" in i.sentence for i in items)


def test_a_later_reading_of_the_project_gets_a_verifier_that_plays_it(tmp_path: Path):
    """A long-lived process (the MCP server) runs `generate` again after a skill changed:
    its verification plays the new reading, not the target built for the first."""
    from evalcore.definitions import load_project

    root = _copy(tmp_path)
    first = load_project(root)
    before = reference(first)
    assert reference(first) is before  # one target per reading, however often asked
    skill_md = root / "skills" / "card_replace" / "skill.md"
    skill_md.write_text(
        skill_md.read_text(encoding="utf-8") + "\nAsk whether they want a receipt.\n",
        encoding="utf-8",
    )
    second = load_project(root)
    after = reference(second)
    assert after is not before
    assert "receipt" in after.project.mantle.skills["card_replace"].body
    assert "receipt" not in before.project.mantle.skills["card_replace"].body


@pytest.mark.parametrize(
    ("value", "pool", "expected"),
    [
        ("card_replce", ["card_replace", "check_balance"], ["card_replace"]),
        ("order_placed", ["order_not_placed"], []),  # an opposite is no suggestion
        ("Card_Replace", ["card_replace"], ["card_replace"]),
    ],
)
def test_suggestions_are_the_same_asked_twice(value: str, pool: list[str], expected: list[str]):
    assert close_matches(value, pool, cutoff=0.85) == expected
    assert close_matches(value, pool, cutoff=0.85) == expected


def test_a_play_leaves_its_case_as_it_was():
    """The mutant plays of one draft share its run case: no play may change it."""
    project = load(BANK)
    data = load_yaml(SCENARIO.read_text(encoding="utf-8"))
    case = run_case(data, SCENARIO, "mantle")[0]
    before = case.model_dump()
    for mutant in [None, *mutants(project)[:6]]:
        asyncio.run(play(case, reference(project, mutant), project))
    assert case.model_dump() == before


def test_verification_plays_the_reading_generate_holds(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
):
    """The reference target plays the very project object it is given (the one planning
    walked), so what planning derived from it (skill models, the brain) serves the plays
    too; the folder is not read a second time."""
    from evalcore.agents.reference import _target
    from evalcore.definitions import load_project

    project = load_project(_copy(tmp_path))
    read: list[Path] = []
    real = _target.load
    monkeypatch.setattr(_target, "load", lambda root: read.append(root) or real(root))
    base = reference(project)
    mutant = reference(project, mutants(project)[0])
    assert base.project is project and mutant.project is project
    assert read == []
