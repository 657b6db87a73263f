"""A refused confirmation asserts the gate's question and denial response wherever the
decline comes at the gate: where the skill has the agent take the user's go-ahead of its own
first (a flag the model sets on the user's yes, or a sentence that asks for a yes before it
calls the tool), a decline there never reaches the gate and the runtime says neither. A flag
set from a tool's result, a read-back the simulated user agrees to, or a question for a
value before the call takes no go-ahead: an agent that never reaches the gate fails."""

from __future__ import annotations

from pathlib import Path

from agentflows.drafting import DraftContext
from agentflows.drafting.offline._mantle import draft_mantle
from agentflows.planning._mantle import plan_mantle
from evalcore.definitions import load_project
from evalcore.definitions.skill_model import asks_before
from evalcore.dialects import get_dialect
from tests.skill_model_fixtures import write_project
from tests.test_confirm_lines import PROJECT as READ_BACK

CORPUS = Path(__file__).parent / "data" / "corpus"


def _said(root: Path, skill: str, case: str) -> list[str]:
    project = load_project(root)
    plan = {b.case: b for b in plan_mantle(project, skill, None).behaviors}
    data = draft_mantle(DraftContext(project, "mantle", plan[case]))
    assertions = data["scenario"]["goals"]["assertions"]
    return [a["bot_uttered"]["utter_name"] for a in assertions if "bot_uttered" in a]


def test_a_sentence_that_asks_for_a_yes_before_the_call_comes_first() -> None:
    said = "Confirm they understand settings will be erased, then call factory_reset_router."
    assert asks_before(said, "factory_reset_router")
    assert not asks_before(
        "Call factory_reset_router with the selected device.", "factory_reset_router"
    )
    # a question for a value is answered, never declined: the gate still asks
    assert not asks_before(
        "Ask how many installments (set plan_installments) and the reason in a few words, "
        "then call request_payment_plan.",
        "request_payment_plan",
    )


def test_the_gate_speaks_where_only_it_asks() -> None:
    # file_damage_report's gate requires nothing the agent takes a yes for first
    said = _said(CORPUS / "skyway_air", "baggage", "refused_file_damage_report")
    assert said[-2:] == ["utter_confirm_damage_report", "utter_report_not_filed"]


def test_a_flag_set_from_a_tools_result_takes_no_yes() -> None:
    # start_deploy requires permission_ok, which the agent sets from the permission check
    said = _said(CORPUS / "forge_platform", "deployments", "refused_start_deploy")
    assert said[-2:] == ["utter_confirm_deploy", "utter_deploy_cancelled"]


def test_a_question_for_a_value_before_the_call_takes_no_yes() -> None:
    # "Ask how many installments …, then call request_payment_plan"
    said = _said(CORPUS / "oakline_residents", "rent_account", "refused_request_payment_plan")
    assert said[-2:] == ["utter_confirm_plan", "utter_plan_not_requested"]


def test_a_read_back_the_user_agrees_to_leaves_the_decline_at_the_gate() -> None:
    # submit_work_order requires details_verified, set once the tenant agrees to the
    # read-back; the simulated user agrees there and declines only at the gate
    said = _said(CORPUS / "oakline_residents", "maintenance_request", "refused_submit_work_order")
    assert said[-2:] == ["utter_confirm_work_order", "utter_work_order_not_sent"]


def test_a_flag_set_on_the_users_go_ahead_takes_the_decline_first(tmp_path: Path) -> None:
    # the agent asks whether they want it filed and sets the flag on a yes: the user's
    # decline comes there, and the gate never speaks
    files = dict(READ_BACK)
    files["skills/file_claim/skill.md"] = files["skills/file_claim/skill.md"].replace(
        "Read back a short summary and ask if everything\nlooks correct; if they confirm, "
        "set details_verified to True.",
        "Ask whether they want it filed; if they agree, set details_verified to True.",
    )
    assert files["skills/file_claim/skill.md"] != READ_BACK["skills/file_claim/skill.md"]
    said = _said(write_project(tmp_path / "go_ahead", files), "file_claim", "refused_submit_claim")
    assert "utter_confirm_submit" not in said and "utter_not_submitted" not in said
    read_back = _said(
        write_project(tmp_path / "read_back", READ_BACK), "file_claim", "refused_submit_claim"
    )
    assert read_back[-2:] == ["utter_confirm_submit", "utter_not_submitted"]


def test_a_criterion_on_the_refusal_cites_the_refused_gate() -> None:
    # promote_release's denial response is asserted; rollback_release, which the case never
    # calls either and which writes the same deploy_id, is not the gate the decline met
    root = CORPUS / "forge_platform"
    project = load_project(root)
    plan = {b.case: b for b in plan_mantle(project, "deployments", None).behaviors}
    data = draft_mantle(DraftContext(project, "mantle", plan["refused_promote_release"]))
    criteria = data["scenario"]["goals"]["criteria"]
    done = next(i for i, c in enumerate(criteria) if "does not say" in c)
    judged = {j.path: j for j in get_dialect("mantle").justify(data, project)}
    why = judged[f"/scenario/goals/criteria/{done}"].justification
    assert why is not None and "promote_release utter_on_user_denial" in why.element
