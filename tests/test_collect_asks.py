"""A happy path asserts a `collect` step's own question only where nothing but the step
fills the slot first: never where the user's opening already holds the value, the skill's
prose asks for the field in its own words, or the step's description leaves the question
to the model (what to assume or work out, when only to ask)."""

from __future__ import annotations

from pathlib import Path

from agentflows.drafting import DraftContext
from agentflows.drafting.offline._mantle import draft_mantle
from agentflows.planning._mantle import plan_mantle
from evalcore.definitions import load_project

CORPUS = Path(__file__).parent / "data" / "corpus"


def _said(project_name: str, skill: str, case: str) -> list[str]:
    project = load_project(CORPUS / project_name)
    plan = {b.case: b for b in plan_mantle(project, skill, None).behaviors}
    data = draft_mantle(DraftContext(project, "mantle", plan[case]))
    assertions = data["scenario"]["goals"]["assertions"]
    return [a["bot_uttered"]["utter_name"] for a in assertions if "bot_uttered" in a]


def test_a_value_the_opening_holds_is_never_asked() -> None:
    # "Someone backed into my car." opens the case: what happened is known before its step
    said = _said("harbor_mutual", "file_claim", "auto")
    assert "utter_ask_what_happened" not in said
    assert "utter_ask_injuries" in said  # nothing else fills it


def test_a_step_that_says_when_only_to_ask_is_not_asserted() -> None:
    # "Only ask when the claim type is auto or the damage is a break-in or fire."
    assert "utter_ask_police_report" not in _said("harbor_mutual", "file_claim", "home")


def test_a_step_that_says_what_to_work_out_is_not_asserted() -> None:
    # "Work it out from the city without asking when it is obvious."
    said = _said("northstar_exec", "travel", "domestic")
    assert "utter_ask_trip_type" not in said
    assert "utter_ask_destination" in said


def test_a_field_the_prose_asks_for_is_not_asserted() -> None:
    # "Ask which instrument and which day": the agent may ask it in its own words first;
    # `hours` is not `extra_hours`, which the prose asks for
    said = _said("tidewater_core", "instrument_time", "request_type_book")
    assert "utter_ask_instrument" not in said
    assert "utter_ask_hours" in said


def _pins(project_name: str, skill: str) -> dict[str, object]:
    project = load_project(CORPUS / project_name)
    plan = {b.case: b for b in plan_mantle(project, skill, None).behaviors}
    data = draft_mantle(DraftContext(project, "mantle", plan["digression"]))
    checks = data["scenario"]["goals"]["assertions"]
    return {k: c[k].get("step_id") for c in checks for k in c if k.startswith("skill_")}


def test_an_interruption_the_prose_may_ask_first_pins_no_step() -> None:
    # "Ask which instrument and which day": the agent may ask it before the block does
    assert _pins("tidewater_core", "instrument_time")["skill_interrupted"] is None
    # "Anything that sounds like an emergency … goes straight to @skill.emergency_line":
    # the agent may ask what is wrong before the block's first question
    assert _pins("oakline_residents", "maintenance_request")["skill_interrupted"] is None
    # nothing before the sample block asks or looks anything up: its own step is where it
    # waits
    assert _pins("tidewater_core", "sample_drop_off")["skill_interrupted"] == "service"


def test_an_interruption_at_a_question_a_lookup_may_answer_pins_no_step() -> None:
    # the inbox search for the receipt runs before the expense block: the model may take
    # the amount from it and never ask, so the detour is not pinned to `amount`
    assert _pins("northstar_exec", "expenses")["skill_interrupted"] is None


def test_a_block_parked_at_its_step_is_asserted_to_resume() -> None:
    # the expense block waits at `amount` while the briefing runs: the runtime holds its
    # place and offers to go on, which the user takes; the briefing's end is the model's,
    # so the return names the skill only
    project = load_project(CORPUS / "northstar_exec")
    plan = {b.case: b for b in plan_mantle(project, "expenses", None).behaviors}
    data = draft_mantle(DraftContext(project, "mantle", plan["digression"]))
    checks = data["scenario"]["goals"]["assertions"]
    assert {"skill_resumed": {"skill_id": "expenses"}} in checks
    order = next(c["sequencing"] for c in checks if "sequencing" in c)
    kinds = [next(iter(c)) for c in order]
    assert kinds.index("skill_interrupted") < kinds.index("skill_resumed")
