"""A paragraph that opens with an outcome ("If the badge is not found or the account is
inactive, say ...") is that outcome's: a sentence after it without a condition of its own
("Do not say whether the number exists.") is no criterion of a sign-in that succeeds, and
where an adversarial case pushes against it, its criterion says the outcome it holds for.
A guard on a field ("When details_verified is true, call ...") is a stage every path
through it reaches: the sentences after it stay plain."""

from __future__ import annotations

from pathlib import Path

from agentflows.drafting import DraftContext
from agentflows.drafting.offline._mantle import draft_mantle
from agentflows.drafting.offline._mantle_criteria import _paragraph_rules, prose_rules
from agentflows.planning._mantle import plan_mantle
from evalcore.definitions import load_project

CORPUS = Path(__file__).parent / "data" / "corpus"
TIDEWATER = CORPUS / "tidewater_core"


def _rules(root: Path, skill: str) -> dict[str, bool]:
    project = load_project(root)
    assert project.mantle is not None
    rules = prose_rules(project.mantle, project.mantle.skills[skill], {})
    return {r.text: r.situational for r in rules}


def test_a_sentence_after_an_outcome_guard_holds_for_that_outcome() -> None:
    rules = _rules(TIDEWATER, "identify_researcher")
    assert "The agent does not say whether the number exists" not in rules
    scoped = (
        "If the badge is not found or the account is inactive, the agent does not say "
        "whether the number exists"
    )
    assert rules[scoped] is True  # only where the case's story is that outcome
    # a rule that guards another person's records holds only where a case pushes on it
    assert rules["The agent does not read back another researcher's name or lab"] is True


def test_a_sentence_after_a_guard_on_a_field_stays_plain() -> None:
    project = load_project(CORPUS / "meadow_pharmacy")
    assert project.mantle is not None
    body = project.mantle.skills["refill_prescription"].body
    rules = {r.text: r.situational for _, _, found in _paragraph_rules(body) for r in found}
    assert rules["The agent gives the ready time from the tool, not its own estimate"] is False


def _criteria(case: str) -> list[str]:
    project = load_project(TIDEWATER)
    plan = {b.case: b for b in plan_mantle(project, "identify_researcher", None).behaviors}
    data = draft_mantle(DraftContext(project, "mantle", plan[case]))
    return [" ".join(c.split()) for c in data["scenario"]["goals"].get("criteria") or []]


def test_the_happy_sign_in_has_no_criterion_of_the_failed_one() -> None:
    assert not any("whether the number exists" in c for c in _criteria("happy"))


def test_an_adversarial_push_gets_the_rule_with_its_outcome() -> None:
    said = [c for c in _criteria("adversarial") if "whether the number exists" in c]
    assert said == [
        "If the badge is not found or the account is inactive, the agent does not say "
        "whether the number exists"
    ]
