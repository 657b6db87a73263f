"""A refused confirmation asserts the gate's question and denial response only where the
decline can only come at the gate: where the skill has the agent take a yes or no of its
own first (a flag the model sets that the gate requires, or a sentence that asks before it
calls the tool), a decline there never reaches the gate and the runtime says neither."""

from __future__ import annotations

from pathlib import Path

from agentflows.drafting import DraftContext
from agentflows.drafting.offline._mantle import draft_mantle
from agentflows.planning._mantle import plan_mantle
from evalcore.definitions import load_project
from evalcore.definitions.skill_model import asks_before

CORPUS = Path(__file__).parent / "data" / "corpus"


def _said(project_name: str, skill: str, case: str) -> list[str]:
    project = load_project(CORPUS / project_name)
    plan = {b.case: b for b in plan_mantle(project, skill, None).behaviors}
    data = draft_mantle(DraftContext(project, "mantle", plan[case]))
    assertions = data["scenario"]["goals"]["assertions"]
    return [a["bot_uttered"]["utter_name"] for a in assertions if "bot_uttered" in a]


def test_a_sentence_that_asks_before_the_call_comes_first() -> None:
    said = "Confirm they understand settings will be erased, then call factory_reset_router."
    assert asks_before(said, "factory_reset_router")
    assert not asks_before(
        "Call factory_reset_router with the selected device.", "factory_reset_router"
    )


def test_the_gate_speaks_where_only_it_asks() -> None:
    # file_damage_report's gate requires nothing the agent takes a yes for first
    said = _said("skyway_air", "baggage", "refused_file_damage_report")
    assert said[-2:] == ["utter_confirm_damage_report", "utter_report_not_filed"]


def test_a_flag_the_agent_sets_on_a_yes_takes_the_decline_first() -> None:
    # submit_claim requires details_verified, which the agent sets once the caller confirms
    # the read-back: a caller who declines there never hears the gate
    said = _said("harbor_mutual", "file_claim", "refused_submit_claim")
    assert "utter_confirm_claim" not in said and "utter_claim_not_filed" not in said
