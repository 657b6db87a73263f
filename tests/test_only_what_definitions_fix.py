"""A case asserts only what the definitions fix: where they leave a point to the model (when
an llm-settable value is written, which question clarifies, which step a block-level
completion ends on), a correct agent may do either, so the case asserts neither."""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Any

from agentflows.drafting import DraftContext
from agentflows.drafting.offline._mantle import draft_mantle
from agentflows.planning._mantle import plan_mantle
from evalcore.definitions import Project, load_project

ROOT = Path(__file__).parent
CORPUS = ROOT / "data" / "corpus"


@cache
def _project(path: Path) -> Project:
    return load_project(path)


@cache
def _goals(project: str, skill: str, case: str) -> dict[str, Any]:
    where = ROOT.parent / "examples" / "bank" if project == "bank" else CORPUS / project
    loaded = _project(where)
    plan = {b.case: b for b in plan_mantle(loaded, skill, None).behaviors}
    return draft_mantle(DraftContext(loaded, "mantle", plan[case]))["scenario"]["goals"]


def _checks(goals: dict[str, Any], kind: str) -> list[Any]:
    return [a[kind] for a in goals["assertions"] if kind in a]


def _criteria(goals: dict[str, Any]) -> str:
    return "\n".join(goals["criteria"])


def test_a_block_with_its_own_completion_condition_names_no_step() -> None:
    """The incident block completes by `complete_when: incident_id`: which step its
    completion event names the definitions do not fix. A block without one keeps its step."""
    done = _checks(_goals("forge_platform", "incidents", "sev3"), "ordered_block_completed")
    assert done == [{"skill_id": "incidents", "block_id": "declare"}]
    # the claim block ends by `details_verified`, which its last step waits for: it ends there
    kept = _checks(_goals("harbor_mutual", "file_claim", "auto"), "ordered_block_completed")
    assert kept == [{"skill_id": "file_claim", "block_id": "loss_details", "step_id": "read_back"}]


def test_a_value_given_up_front_leaves_the_blocks_question_unasserted() -> None:
    """The instrument named in the opening comes before the booking block starts: whether
    the model records it then or the block asks is the model's, so no `bot_did_not_utter`;
    the criterion stays. The bank's card_replace tells the agent to record what the customer
    already said, so its question stays asserted unasked."""
    goals = _goals("tidewater_core", "instrument_time", "details_up_front")
    assert not _checks(goals, "bot_did_not_utter"), goals["assertions"]
    assert "does not ask for the instrument" in _criteria(goals)
    bank = _goals("bank", "card_replace", "details_up_front")
    unsaid = [b["utter_name"] for b in _checks(bank, "bot_did_not_utter")]
    assert "utter_ask_replacement_reason" in unsaid, unsaid


def test_a_detail_that_ends_its_step_early_is_not_said_up_front() -> None:
    """The pickup store ends the logistics step, which also asks for a pickup day: said in
    the opening, the step is done before the day is asked, so the opening leaves it out
    (and the sequencing then orders its write where the step records it)."""
    plan = {
        b.case: b
        for b in plan_mantle(
            _project(CORPUS / "meadow_pharmacy"), "refill_prescription", None
        ).behaviors
    }
    loaded = _project(CORPUS / "meadow_pharmacy")
    data = draft_mantle(DraftContext(loaded, "mantle", plan["details_up_front"]))
    context = data["scenario"]["simulation_context"]
    opening = next(line for line in context.splitlines() if line.startswith("Open with"))
    assert "store is" not in opening, opening

    handoff = _criteria(_goals("harbor_mutual", "adjuster_handoff", "details_up_front"))
    assert "callback window again" not in handoff, handoff
    deploy = _criteria(_goals("forge_platform", "deployments", "details_up_front"))
    assert "again" in deploy, deploy


def test_a_value_another_skills_block_collects_is_not_claimed_unasked() -> None:
    """The identity check collects its own `policy_number`: its step asks whatever the
    first message said, so "does not ask again" never names it. The claim's prose keeps
    what happened once told ("keep it and do not ask again"): the check is about that, and
    a detail no definition keeps (a police report number) is left to the model."""
    text = _criteria(_goals("harbor_mutual", "file_claim", "details_up_front"))
    again = [c for c in text.split("\n") if "what the first message gave" in c]
    assert again and "what happened" in again[0], text
    assert "policy number" not in again[0], again
    assert "police report number" not in again[0], again


def test_a_lookup_another_tools_answer_covers_is_not_asserted() -> None:
    """The flight search answers with `in_policy`: an agent may keep to the policy from
    that and never run the policy lookup, so the case does not assert it; the search and
    the booking stay."""
    goals = _goals("northstar_exec", "travel", "details_up_front")
    ran = {t["tool_name"] for t in _checks(goals, "tool_executed")}
    assert "get_travel_policy" not in ran, ran
    assert {"search_flights", "book_trip"} <= ran, ran


def test_an_ambiguity_criterion_takes_the_article_its_field_needs() -> None:
    """ "does not record an instrument", not "a instrument"."""
    text = _criteria(_goals("tidewater_core", "instrument_time", "unclear_answer"))
    assert "does not record an instrument the researcher" in text, text


def test_a_branch_of_alternatives_asks_for_the_one_that_applies() -> None:
    """The lockout paragraph gives one way in for office hours and another after hours;
    the case does not fix the time, so the criterion asks for whichever applies, in its
    own words, not "does what the skill says" over the pasted paragraph."""
    text = _criteria(_goals("oakline_residents", "door_access", "lockout"))
    assert "whichever applies" in text, text
    assert "does what the skill says" not in text, text
    # one criterion: the alternatives are not split into two checks
    assert len([c for c in text.split("\n") if "after hours" in c]) == 1, text
    assert "after hours" in next(c for c in text.split("\n") if "whichever applies" in c), text
