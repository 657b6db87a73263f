"""Mantle goals read off the walk: success on happy paths, nothing contradicting it, Rasa-exact
sequencing, criteria from the skill's own prose rules."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from agentflows.drafting import DraftContext
from agentflows.drafting.offline._mantle import draft_mantle
from agentflows.drafting.offline._mantle_checks import (
    SEQUENCE_MAPS,
    SEQUENCE_NAMES,
    sequencing,
    sequencing_step,
    success_of,
)
from agentflows.drafting.offline._mantle_criteria import _clauses, prose_rules, sentence_rule
from agentflows.planning import plan_source
from evalcore.definitions import load_project

REPO = Path(__file__).resolve().parents[1]
BANK = REPO / "examples" / "bank"
MINI = REPO / "tests" / "fixtures" / "definitions" / "mini_mantle"

CLAIM_SKILL = """---
name: File a claim
description: Claim filing for a car or a home policy.
tool_constraints:
  - submit_claim:
      requires_confirmation:
        enabled: true
        utter_for_confirmation: utter_confirm_claim
        utter_on_user_denial: utter_claim_not_filed
      on_success: utter_claim_filed
complete_when:
  condition: session.file_claim.claim_id
---
Help the policyholder file a claim. Run @block.collect_details first.

When details_verified is True, call submit_claim with the collected fields. Never promise
a payout amount.

:::ordered_block id=collect_details
steps:
  - id: ask_kind
    collect: claim_kind
    utterance: utter_ask_kind
  - id: ask_date
    collect: incident_date
    utterance: utter_ask_date
:::
"""
CLAIM_MEMORY = """schema:
  public:
    claim_kind:
      type: categorical
      enum_values: [car, home]
      description: Which policy the claim is on.
    incident_date:
      type: text
      description: When it happened, MM/DD/YYYY.
    claim_id:
      type: text
      description: Reference of the filed claim.
"""
CLAIM_RESPONSES = """responses:
  utter_ask_kind:
    - text: Is this about your car or your home?
  utter_ask_date:
    - text: When did it happen?
  utter_confirm_claim:
    - text: Shall I file the claim?
  utter_claim_not_filed:
    - text: All right, nothing was filed.
  utter_claim_filed:
    - text: Your claim is filed.
"""
CLAIM_TOOLS = """from rasa.mantle.tools.decorator import ToolContext, tool


@tool(description="File the claim.")
async def submit_claim(claim_kind: str, incident_date: str, context: ToolContext = None):
    context.memory.set("claim_id", "CLM-1")
"""


@pytest.fixture(scope="module")
def bank():
    return load_project(BANK)


@pytest.fixture(scope="module")
def claims(tmp_path_factory: pytest.TempPathFactory):
    """A project whose terminal tool is called from prose by its bare name."""
    root = tmp_path_factory.mktemp("claims")
    (root / "agent.yml").write_text("name: Harbor claims desk\n")
    (root / "memory.yml").write_text("caller_phone:\n  type: text\n  seed: true\n")
    (root / "responses.yml").write_text("responses:\n  utter_goodbye:\n    - text: Goodbye!\n")
    skill = root / "skills" / "file_claim"
    skill.mkdir(parents=True)
    (skill / "skill.md").write_text(CLAIM_SKILL)
    (skill / "memory.yml").write_text(CLAIM_MEMORY)
    (skill / "responses.yml").write_text(CLAIM_RESPONSES)
    (skill / "tools.py").write_text(CLAIM_TOOLS)
    return load_project(root)


def drafts(project) -> list[tuple[Any, dict[str, Any]]]:
    out = []
    for skill in project.mantle.skills:
        for behavior in plan_source(project, "mantle", skill, None).behaviors:
            out.append((behavior, draft_mantle(DraftContext(project, "mantle", behavior))))
    return out


def assertions(data: dict[str, Any]) -> list[dict[str, Any]]:
    return data["scenario"].get("goals", {}).get("assertions", [])


# --- sequencing ---------------------------------------------------------------------------


def test_sequencing_keeps_only_the_steps_rasa_allows() -> None:
    assert sequencing_step({"bot_uttered": {"utter_name": "utter_x"}}) is None
    assert sequencing_step({"memory_was_not_set": [{"name": "a.b"}]}) is None
    assert sequencing_step({"memory_was_set": [{"name": "a.b", "value": 1}]}) == {
        "memory_was_set": "a.b"
    }
    tool = {"tool_executed": {"tool_name": "t", "source": "local", "arguments": {"x": 1}}}
    assert sequencing_step(tool) == {"tool_executed": {"tool_name": "t", "source": "local"}}
    assert sequencing_step({"skill_completed": {"skill_id": "s", "step_id": "x"}}) == {
        "skill_completed": {"skill_id": "s"}
    }
    # fewer than two allowed steps is no sequence at all
    assert sequencing([{"bot_uttered": {"utter_name": "u"}}, tool]) is None


@pytest.mark.parametrize("name", ["bank", "mini", "claims"])
def test_no_draft_puts_an_unsupported_step_in_sequencing(name, bank, claims) -> None:
    project = {"bank": bank, "mini": load_project(MINI), "claims": claims}[name]
    allowed = SEQUENCE_MAPS | SEQUENCE_NAMES | {"tool_executed"}
    for behavior, data in drafts(project):
        for item in assertions(data):
            for step in item.get("sequencing", []):
                assert set(step) <= allowed, (behavior.id, step)


# --- happy paths --------------------------------------------------------------------------


def test_a_happy_path_asserts_the_call_its_success_rests_on_never_the_answer(bank) -> None:
    for behavior, data in drafts(bank):
        if behavior.type != "happy_path" or behavior.source != "card_replace":
            continue
        items = assertions(data)
        # the card service answers whether the order went through: the case asserts the
        # call the order rests on (the order itself, or the block it `requires`), never the
        # answer (no `is_error: false`, no success reply, no completion on the order id)
        assert {"skill_completed": {"skill_id": "card_replace"}} not in items
        assert {"bot_uttered": {"utter_name": "utter_order_placed"}} not in items
        ran = [i["tool_executed"] for i in items if "tool_executed" in i]
        assert any(
            t["tool_name"] in ("place_replacement_order", "order_replacement", "block_card")
            for t in ran
        )
        assert not any("is_error" in t for t in ran)
        criteria = data["scenario"]["goals"]["criteria"]
        assert any(c.startswith("If ") and " succeeds, the agent " in c for c in criteria)


@pytest.mark.parametrize("name", ["bank", "claims"])
def test_a_happy_path_never_asserts_its_own_task_undone(name, bank, claims) -> None:
    project = {"bank": bank, "claims": claims}[name]
    for behavior, data in drafts(project):
        if behavior.type != "happy_path":
            continue
        skill = project.mantle.skills[behavior.source]
        success = success_of(project, skill)
        unset = {i["name"] for a in assertions(data) for i in a.get("memory_was_not_set", [])}
        assert not unset & set(success.keys), behavior.id
        denied = {
            a["bot_did_not_utter"]["utter_name"]
            for a in assertions(data)
            if "bot_did_not_utter" in a
        }
        assert success.response not in denied


def test_the_claim_skill_knows_its_success_signal_even_when_the_walk_stops_short(claims) -> None:
    skill = claims.mantle.skills["file_claim"]
    success = success_of(claims, skill)
    assert success.tool == "submit_claim" and success.response == "utter_claim_filed"
    assert success.keys == ("file_claim.claim_id",)


def test_a_lost_card_path_asserts_the_fraud_flag_it_really_avoids(bank) -> None:
    plan = {b.case: b for b in plan_source(bank, "mantle", "card_replace", None).behaviors}
    items = assertions(draft_mantle(DraftContext(bank, "mantle", plan["lost"])))
    unset = [i["name"] for a in items for i in a.get("memory_was_not_set", [])]
    assert unset == ["card_replace.fraud_reported"]  # the stolen-only step it skipped


# --- criteria -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("sentence", "criterion"),
    [
        (
            "Never say which detail did not match.",
            "The agent does not say which detail did not match",
        ),
        (
            "Do not ask for confirmation in your own words.",
            "The agent does not ask for confirmation in its own words",
        ),
        (
            "If the customer says no, do not order again unless they ask.",
            "If the customer says no, the agent does not order again unless they ask",
        ),
        (
            "Tell the customer the card can no longer be used.",
            "The agent tells the customer the card can no longer be used",
        ),
        (
            "Do not stay active, do not wait for more input.",
            "The agent does not stay active or wait for more input",
        ),
        ("A prescription is never refilled early.", None),
        ("The card keeps working until the new one is activated.", None),
    ],
)
def test_prose_sentences_become_single_bot_side_criteria(sentence, criterion) -> None:
    assert sentence_rule(sentence) == criterion


def test_rules_under_an_if_the_path_does_not_take_are_left_out(bank) -> None:
    skill = bank.mantle.skills["card_replace"]
    stolen = [
        r.text
        for r in prose_rules(bank.mantle, skill, {"card_replace.replacement_reason": "stolen"})
    ]
    damaged = [
        r.text
        for r in prose_rules(bank.mantle, skill, {"card_replace.replacement_reason": "damaged"})
    ]
    told = (
        "When the replacement reason is stolen, "
        "the agent tells the customer the card can no longer be used"
    )
    assert told in stolen and told not in damaged
    assert stolen.index(told) == 0  # the active branch's rule comes first


def test_criteria_come_from_the_skill_and_never_restate_an_assertion(claims) -> None:
    for behavior, data in drafts(claims):
        criteria = data["scenario"].get("goals", {}).get("criteria", [])
        ids = {a for item in assertions(data) for a in _ids(item)}
        for text in criteria:
            assert not any(i in text for i in ids if i.startswith("utter_")), (behavior.id, text)
            assert "original request" not in text
    happy = next(d for b, d in drafts(claims) if b.type == "happy_path")
    assert "The agent does not promise a payout amount" in happy["scenario"]["goals"]["criteria"]


def _ids(item: Any) -> list[str]:
    if isinstance(item, dict):
        return [x for v in item.values() for x in _ids(v)]
    if isinstance(item, list):
        return [x for v in item for x in _ids(v)]
    return [item] if isinstance(item, str) else []


def test_a_criterion_that_only_begins_another_gives_way_to_it() -> None:
    from agentflows.drafting.offline._mantle_path import PathGoals

    goals = PathGoals.__new__(PathGoals)  # only the criteria list matters here
    goals.criteria = []
    goals.criterion("The agent does not ask again")
    goals.criterion("The agent does not ask again for the policy number")
    goals.criterion("The agent does not ask again")
    goals.criterion("The agent never reads out the card id")
    assert goals.criteria == [
        "The agent does not ask again for the policy number",
        "The agent never reads out the card id",
    ]


def test_a_clause_keeps_the_condition_its_sentence_opens_with() -> None:
    sentence = (
        "If no refills are left, offer a renewal with @tool.request_renewal and say it "
        "usually takes one to two business days."
    )
    rules = [sentence_rule(clause) for clause in _clauses(sentence)]
    assert rules == [
        "If no refills are left, the agent offers a renewal with request renewal",
        "If no refills are left, the agent says it usually takes one to two business days",
    ]


def test_a_clause_whose_condition_points_back_is_no_criterion() -> None:
    # "after that" is "after they failed twice": out of the sentence it would say the
    # agent offers a PIN reset on every path
    sentence = (
        "If they do not match, let them try once more; after that, say the PIN can be reset "
        "at any branch counter."
    )
    assert [sentence_rule(c) for c in _clauses(sentence)] == [None, None]
    assert sentence_rule("If not, offer the equipment issue skill") is None
    assert sentence_rule("Otherwise, never book it") is None


def test_a_prohibition_is_dropped_rather_than_stripped_of_its_condition() -> None:
    # "The agent does not answer" would forbid answering anything at all.
    assert sentence_rule("If they ask whether they can take it with food, do not answer") is None
    assert sentence_rule("If only one payment shows, say so") is None
    assert (
        sentence_rule("When the caller asks for a manager, never refuse")
        == "When the caller asks for a manager, the agent does not refuse"
    )


def test_a_digression_interrupts_the_skill_at_one_of_its_own_steps() -> None:
    """refill_prescription first calls verify_patient (`call:`), whose questions are
    verify_patient's steps: the detour must wait at a step of refill_prescription itself."""
    project = load_project(Path(__file__).parent / "data" / "corpus" / "meadow_pharmacy")
    skill = project.mantle.skills["refill_prescription"]
    own_steps = {step.id for block in skill.blocks.values() for step in block.steps}
    plan = {b.case: b for b in plan_source(project, "mantle", skill.id, None).behaviors}
    data = draft_mantle(DraftContext(project, "mantle", plan["digression"]))
    interrupted = [a["skill_interrupted"] for a in assertions(data) if "skill_interrupted" in a]
    assert interrupted and all(a["skill_id"] == skill.id for a in interrupted)
    assert all(a["step_id"] in own_steps for a in interrupted)


def test_a_digression_criterion_names_the_request_in_words_that_read() -> None:
    project = load_project(Path(__file__).parent / "data" / "corpus" / "meadow_pharmacy")
    plan = {
        b.case: b for b in plan_source(project, "mantle", "refill_prescription", None).behaviors
    }
    data = draft_mantle(DraftContext(project, "mantle", plan["digression"]))
    criteria = data["scenario"]["goals"]["criteria"]
    # order_status's description opens with a clause ("Where a refill or delivery is: ..."):
    # the request is named by the skill's name
    assert "The agent deals with the order status request before going back" in criteria
    assert not any("the where" in c for c in criteria)


def test_a_token_that_ends_its_sentence_keeps_its_name():
    # "@skill.inspections." : the sentence's full stop is not part of the token
    rule = sentence_rule(
        "If they want the next inspection, offer to book it with @skill.inspections."
    )
    assert rule is not None and rule.endswith("with inspections"), rule


@pytest.mark.parametrize(
    ("project", "skill", "case", "left_out"),
    [
        ("meadow_pharmacy", "refill_prescription", "delivery", "pickup"),
        ("oakline_residents", "maintenance_request", "heating_cooling", "temp"),
        # the step reads "for home the damaged area": not on the car path
        ("harbor_mutual", "file_claim", "auto", "damaged"),
    ],
)
def test_a_read_back_criterion_names_only_what_the_read_back_step_says(
    project: str, skill: str, case: str, left_out: str
) -> None:
    """The step that asks for the yes names what it reads back ("the category, the problem
    and whether they may enter"): a tool argument it leaves out is no part of a read-back a
    correct agent gives."""
    loaded = load_project(Path(__file__).parent / "data" / "corpus" / project)
    plan = {b.case: b for b in plan_source(loaded, "mantle", skill, None).behaviors}
    data = draft_mantle(DraftContext(loaded, "mantle", plan[case]))
    read_backs = [c for c in data["scenario"]["goals"]["criteria"] if "back for the" in c]
    assert read_backs
    assert not any(left_out in c for c in read_backs), read_backs
