"""Offline drafts assert what a broken agent gets wrong, on corpus projects (not the bank):
tool-written ids by name, every lookup the path runs without an error, the arguments the
user's own answers fix, the confirmation read-back and the value the path routes on; and
each of these kills the mutant of its kind against the reference agent."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest
import yaml

from agentflows.drafting import DraftContext
from agentflows.drafting.offline._mantle import draft_mantle
from agentflows.mutate import mutate
from agentflows.planning import plan_source
from evalcore.definitions import load_project
from evalcore.runner import collect_cases

CORPUS = Path(__file__).resolve().parent / "data" / "corpus"
HARBOR = CORPUS / "harbor_mutual"
OAKLINE = CORPUS / "oakline_residents"


def _happy(root: Path, skill: str) -> dict[str, dict[str, Any]]:
    project = load_project(root)
    out = {}
    for behavior in plan_source(project, "mantle", skill, None).behaviors:
        if behavior.facts.get("kind") == "happy" and behavior.type == "happy_path":
            out[behavior.id] = draft_mantle(DraftContext(project, "mantle", behavior))
    assert out, f"{skill} has a happy path"
    return out


def _checks(data: dict[str, Any], key: str) -> list[Any]:
    return [a[key] for a in data["scenario"]["goals"]["assertions"] if key in a]


@pytest.fixture(scope="module")
def claims() -> dict[str, dict[str, Any]]:
    return _happy(HARBOR, "file_claim")


@pytest.fixture(scope="module")
def repairs() -> dict[str, dict[str, Any]]:
    return _happy(OAKLINE, "maintenance_request")


def test_a_happy_path_asserts_the_call_never_what_the_service_answers(claims, repairs) -> None:
    """The claim number and the work order id come from the outside service's reply (the
    tools post to it and write what it answers): a case asserts the call, never the answer,
    which the service decides (a refusal comes back as an ordinary result)."""
    auto = claims["file_claim:auto"]
    names = {i["name"] for c in _checks(auto, "memory_was_set") for i in c}
    assert "file_claim.claim_number" not in names
    assert "file_claim.claim_type" in names  # what the user said stays
    assert "submit_claim" in {t["tool_name"] for t in _checks(auto, "tool_executed")}
    repair = next(iter(repairs.values()))
    names = {i["name"] for c in _checks(repair, "memory_was_set") for i in c}
    assert "maintenance_request.work_order_id" not in names
    assert "submit_work_order" in {t["tool_name"] for t in _checks(repair, "tool_executed")}


def test_a_happy_path_asserts_each_lookup_and_the_arguments_the_user_fixes(claims) -> None:
    runs = {t["tool_name"]: t for t in _checks(claims["file_claim:auto"], "tool_executed")}
    assert runs["list_policies"]["is_error"] is False
    # "Use @tool.lookup_coverage only to say what the policy covers": the agent's choice
    assert "lookup_coverage" not in runs
    # a policy number the user reads out is an id the agent passes unchanged
    number = runs["submit_claim"]["arguments"]["policy_number"]
    told = claims["file_claim:auto"]["scenario"]["simulation_context"]
    assert f"- policy number: {number}\n" in told
    # free prose a model may reword is never added as an argument value
    assert "incident_date" not in runs["submit_claim"].get("arguments", {})


def test_a_happy_path_asserts_the_confirmation_read_back(claims, repairs) -> None:
    said = {b["utter_name"] for b in _checks(claims["file_claim:auto"], "bot_uttered")}
    assert "utter_confirm_claim" in said
    said = {b["utter_name"] for d in repairs.values() for b in _checks(d, "bot_uttered")}
    assert "utter_confirm_work_order" in said


def _kills(root: Path, drafts: dict[str, dict[str, Any]], only: list[str], tmp: Path):
    tmp.mkdir(parents=True, exist_ok=True)
    for behavior_id, data in drafts.items():
        slug = behavior_id.replace(":", "_") + "_happy_path"
        (tmp / f"{slug}.yml").write_text(yaml.safe_dump(data, sort_keys=False))
    cases = collect_cases([tmp], project=root)
    return asyncio.run(mutate(cases, root, concurrency=2, only=only))


def test_the_new_assertions_kill_their_mutants_on_a_corpus_project(claims, tmp_path) -> None:
    wanted = [  # (the claim number is the claims service's answer: no case asserts it)
        "fail_silently:list_policies",
        "skip_confirmation:submit_claim",
    ]
    report = _kills(HARBOR, claims, wanted, tmp_path)
    assert set(report.reference.values()) == {"passed"}, report.reference
    assert {r.mutant.id for r in report.results} == set(wanted)
    assert [r.mutant.id for r in report.survivors()] == []


def test_a_skipped_lookup_step_is_caught_on_another_project(repairs, tmp_path) -> None:
    wanted = [  # (the work order id is the service's answer: no case asserts it)
        "skip_step:maintenance_request.describe_repair.load_profile",
        "skip_confirmation:submit_work_order",
    ]
    report = _kills(OAKLINE, repairs, wanted, tmp_path)
    assert set(report.reference.values()) == {"passed"}, report.reference
    assert [r.mutant.id for r in report.survivors()] == []


def test_another_modes_tool_is_not_asserted_never_to_answer() -> None:
    """door_access calls deactivate_fob only under `if: request == "lost_fob"`: no agent on a
    guest-PIN path has a reason to say its success reply, so "never said" there checks
    nothing (blind reviewers called such checks noise); the lost-fob path asserts the call
    itself."""
    drafts = _happy(OAKLINE, "door_access")
    guest = drafts["door_access:guest_pin"]
    assert {"utter_name": "utter_fob_deactivated"} not in _checks(guest, "bot_did_not_utter")
    lost = drafts["door_access:lost_fob"]
    assert {"utter_name": "utter_fob_deactivated"} not in _checks(lost, "bot_did_not_utter")
    assert any(c["tool_name"] == "deactivate_fob" for c in _checks(lost, "tool_executed"))


@pytest.mark.parametrize(
    ("condition", "parts"),
    [
        (
            '(session.a.mode == "book") and session.a.ok',
            ['session.a.mode == "book"', "session.a.ok"],
        ),
        ("session.a.x or session.a.y", []),
        (
            "(session.a.x or session.a.y) and session.a.z",
            ["session.a.x or session.a.y", "session.a.z"],
        ),
        ("session.a.x", []),
    ],
)
def test_a_requires_splits_into_its_top_level_and_parts(condition, parts) -> None:
    from evalcore.definitions.conditions import conjuncts

    assert conjuncts(condition) == parts


def test_a_mode_that_only_answers_does_not_assert_that_the_skill_completes(tmp_path) -> None:
    """door_access's lockout mode runs no tool (it tells the resident who can let them in)
    and the skill has no `complete_when`: Mantle leaves its completion to the model, so the
    happy path does not assert `skill_completed`; a criterion quotes what the mode's
    paragraph says to answer, and the suite still counts it as asserting the mode's
    success."""
    from agentflows.scoring._cases import load_suite
    from agentflows.scoring._goals import asserts_success
    from agentflows.scoring.skills import skill_signals

    drafts = _happy(OAKLINE, "door_access")
    lockout = drafts["door_access:lockout"]
    assert _checks(lockout, "skill_completed") == []
    # the mode's own paragraph (a referral to the office) is its criterion
    assert any("whichever applies" in c for c in lockout["scenario"]["goals"]["criteria"])
    signals = skill_signals(load_project(OAKLINE), "door_access")
    (tmp_path / "lockout.yml").write_text(yaml.safe_dump(lockout, sort_keys=False))
    [case], _ = load_suite([tmp_path])
    assert asserts_success(case, signals)
    assert _checks(lockout, "bot_did_not_utter") == []  # no success it could contradict
    report = _kills(OAKLINE, {"door_access:lockout": lockout}, [], tmp_path)
    assert set(report.reference.values()) == {"passed"}, report.reference


def test_a_left_out_last_step_shows_in_the_step_its_block_completes_at(tmp_path) -> None:
    """A block ends at its last step: the happy path asserts which one, so an agent that
    leaves out a closing instructions step (no memory, tool or response of its own) is
    caught there, and only there."""
    drafts = _happy(HARBOR, "file_claim")
    behavior_id, data = "file_claim:auto", drafts["file_claim:auto"]
    wanted = {"skill_id": "file_claim", "block_id": "loss_details", "step_id": "read_back"}
    assert wanted in _checks(data, "ordered_block_completed")
    goals = data["scenario"]["goals"]
    only_block = {"ordered_block_completed": wanted}
    mutant = ["skip_step:file_claim.loss_details.read_back"]
    goals["assertions"] = [only_block]
    report = _kills(HARBOR, {behavior_id: data}, mutant, tmp_path / "with_step")
    assert set(report.reference.values()) == {"passed"}, report.reference
    assert report.survivors() == []
    without = {k: v for k, v in wanted.items() if k != "step_id"}
    goals["assertions"] = [{"ordered_block_completed": without}]
    report = _kills(HARBOR, {behavior_id: data}, mutant, tmp_path / "without_step")
    assert [r.mutant.id for r in report.survivors()] == mutant
