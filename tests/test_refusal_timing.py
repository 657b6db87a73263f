"""The simulated user says each line at the moment the case needs it: a refusal declines the
runtime's own confirmation question (not the agent's proposal or read-back before it), a
question asked in the first message that only a later step can answer is asked again at
that step, and a value said up front never reads as a greeting."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from agentflows.drafting import DraftContext
from agentflows.drafting.offline._mantle import draft_mantle
from agentflows.drafting.offline._mantle_up_front import not_a_greeting
from agentflows.planning import plan_source
from agentflows.planning._mantle import plan_mantle
from agentflows.planning._mantle_vocab import seen_text
from evalcore.definitions import Response, ResponseVariant, load_project
from evalcore.runcase import SimulationSpec
from evalcore.simulator import (
    FactContext,
    SimulatorSettings,
    Utterance,
    make_simulator,
    parse_fact_context,
)
from tests.skill_model_fixtures import write_project
from tests.test_confirm_lines import PROJECT as READ_BACK

CORPUS = Path(__file__).resolve().parent / "data" / "corpus"


def _context(project: str, skill: str, case: str) -> tuple[object, str]:
    loaded = load_project(CORPUS / project)
    behaviors = plan_source(loaded, "mantle", skill, None).behaviors
    behavior = next(b for b in behaviors if b.case == case)
    return loaded, draft_mantle(DraftContext(loaded, "mantle", behavior))["scenario"][
        "simulation_context"
    ]


def test_the_decline_only_line_renders_and_reads_back() -> None:
    context = FactContext("Ana, a customer", "want to move a meeting", read_back=False)
    context.gate, context.confirm, context.gate_question = "move the event", "decline", "Move …?"
    text = context.render()
    assert 'Decline only the last question before the agent acts, worded like: "Move …?"' in text
    assert "say yes to what the agent proposes or reads back" in text
    parsed = parse_fact_context(text)
    assert (parsed.gate, parsed.confirm, parsed.gate_question) == (
        "move the event",
        "decline",
        "Move …?",
    )
    assert parsed.render() == text
    context.confirm = "agree"  # a user who takes the action has nothing to hold back
    assert "Decline only" not in context.render()


def test_a_refusal_declines_the_runtime_question_and_takes_the_proposal() -> None:
    _, text = _context("northstar_exec", "calendar", "refused_move_event")
    parsed = parse_fact_context(text)
    assert parsed.confirm == "decline"
    # the skill proposes the new time itself: the question declined is the runtime's own
    assert parsed.gate_question == "Move '…' to …? Attendees get an updated invite."
    assert "say yes to what the agent proposes" in text


def _refused(root: Path) -> str:
    project = load_project(root)
    plan = {b.case: b for b in plan_mantle(project, "file_claim", None).behaviors}
    data = draft_mantle(DraftContext(project, "mantle", plan["refused_submit_claim"]))
    return data["scenario"]["simulation_context"]


def test_a_go_ahead_the_agent_takes_first_keeps_the_decline_there(tmp_path: Path) -> None:
    # where the agent asks whether they want it filed and sets the flag on a yes, the
    # decline comes at that question: no line holds it back for the runtime's
    files = dict(READ_BACK)
    files["skills/file_claim/skill.md"] = files["skills/file_claim/skill.md"].replace(
        "Read back a short summary and ask if everything\nlooks correct; if they confirm, "
        "set details_verified to True.",
        "Ask whether they want it filed; if they agree, set details_verified to True.",
    )
    assert files["skills/file_claim/skill.md"] != READ_BACK["skills/file_claim/skill.md"]
    go_ahead = _refused(write_project(tmp_path / "go_ahead", files))
    assert parse_fact_context(go_ahead).confirm == "decline"
    assert "Decline only" not in go_ahead
    read_back = _refused(write_project(tmp_path / "read_back", READ_BACK))
    assert parse_fact_context(read_back).gate_question is not None


@pytest.mark.parametrize(("skill", "case"), [("calendar", "reschedule")])
def test_a_happy_path_has_no_decline_line(skill: str, case: str) -> None:
    _, text = _context("northstar_exec", skill, case)
    assert parse_fact_context(text).gate_question is None
    assert "Decline only" not in text


def test_a_question_only_a_later_step_answers_is_asked_again_there() -> None:
    project, text = _context("harbor_mutual", "file_claim", "policy_covers")
    parsed = parse_fact_context(text)
    assert "what the policy covers" in (parsed.opening or "")
    again = [c for c in parsed.cues if "what the policy covers" in c.line]
    # the coverage lookup needs the policy picked: the question comes at the next step,
    # and the user still answers that step
    assert [(c.cue, c.then_answer) for c in again] == [("what happened", True)], parsed.cues
    settings = SimulatorSettings(project=project)
    sim = make_simulator(SimulationSpec(context=text), dialect="mantle", settings=settings)
    history = [Utterance(1, "user", asyncio.run(sim.next_step([])).message)]
    history.append(Utterance(1, "agent", "Thanks. What happened?"))
    said = asyncio.run(sim.next_step(history)).message
    assert "what the policy covers" in said


def test_a_value_that_is_a_greeting_is_said_with_its_field() -> None:
    _, text = _context("harbor_mutual", "adjuster_handoff", "details_up_front")
    opening = parse_fact_context(text).opening or ""
    assert "Morning, please." not in opening
    assert "Morning for the callback window, please." in opening
    assert not_a_greeting("Dosage, please.", "question type") == "Dosage, please."
    assert not_a_greeting("Evening, please.", "slot") == "Evening for the slot, please."


@pytest.mark.parametrize(
    ("project", "skill", "case", "seen", "not_seen"),
    [
        # the user grants entry: the runtime asks the variant whose condition that meets
        (
            "oakline_residents",
            "maintenance_request",
            "refused_submit_work_order",
            "maintenance may enter?",
            "someone will be home?",
        ),
        # an auto claim: the auto policy's wording, not the home policy's default
        ("harbor_mutual", "file_claim", "refused_submit_claim", "auto policy", "home policy"),
    ],
)
def test_the_declined_question_is_the_variant_the_case_selects(
    project: str, skill: str, case: str, seen: str, not_seen: str
) -> None:
    _, text = _context(project, skill, case)
    quoted = parse_fact_context(text).gate_question or ""
    assert seen in quoted and not_seen not in quoted, quoted


def test_a_variant_the_case_cannot_tell_is_named_by_its_tool() -> None:
    response = Response(
        name="utter_confirm",
        variants=[
            ResponseVariant(text="Pay by card?", condition="session.pay.method == 'card'"),
            ResponseVariant(text="Pay from your bank?"),
        ],
    )
    assert seen_text(response, {"pay.method": "card"}, set()) == ("Pay by card?", False)
    assert seen_text(response, {"pay.method": "ach"}, set()) == ("Pay from your bank?", False)
    # never set on the path: unset, as at runtime; only a tool's write whose value the
    # real tool knows: no quote
    assert seen_text(response, {}, set()) == ("Pay from your bank?", False)
    assert seen_text(response, {"pay.method": "card"}, {"pay.method"}) == (None, True)
    # a part the case fixes that is false settles it, whatever the open part holds
    fee = Response(
        name="utter_confirm",
        variants=[
            ResponseVariant(
                text="Pay a fee?", condition="session.pay.method == 'card' and session.pay.fee > 0"
            ),
            ResponseVariant(text="Pay at no cost?"),
        ],
    )
    assert seen_text(fee, {"pay.method": "ach"}, {"pay.fee"}) == ("Pay at no cost?", False)
    assert seen_text(fee, {"pay.method": "card"}, {"pay.fee"}) == (None, True)
    context = FactContext("Ana, a customer", "want to pay rent", read_back=False)
    context.gate, context.confirm, context.gate_tool = "make the payment", "decline", "make_payment"
    text = context.render()
    assert "worded like" not in text
    assert "the confirmation question before make_payment runs." in text
    parsed = parse_fact_context(text)
    assert (parsed.gate_tool, parsed.gate_question) == ("make_payment", None)
    assert parsed.render() == text
