"""The offline Mantle drafter: valid, lint-clean, deterministic, playable, shaped by direction."""

from __future__ import annotations

import re

import pytest
from conftest import EXAMPLES

from agentflows.drafting import DraftContext
from agentflows.drafting.offline import OfflineEngine
from agentflows.drafting.offline._direction import Choice, parse_direction
from agentflows.drafting.offline._mantle import draft_mantle
from agentflows.planning._mantle import plan_mantle
from evalcore.definitions import load_project
from evalcore.dialects import get_dialect
from evalcore.simulator import is_fact_context, parse_fact_context, quoted_user_lines
from evalcore.testdata import FAILING_ACCOUNT, NEGATIVE_ACCOUNT, callers_in, load_records
from evalcore.validation import check_data

BANK = EXAMPLES / "bank"
MANTLE = get_dialect("mantle")
DIRECTION = (
    "an impatient customer with a cracked chip; assert card_replace completes and the reason "
    "is never asked twice"
)
FILLER = {"The usual one, please.", "Unknown, please.", "No, I haven't.", "Yes."}


@pytest.fixture(scope="module")
def bank():
    return load_project(BANK)


def all_behaviors(project, direction=None):
    for skill in sorted(project.mantle.skills):
        yield from plan_mantle(project, skill, direction).behaviors


def draft(project, behavior, direction=None):
    return draft_mantle(DraftContext(project, "mantle", behavior, direction))


@pytest.mark.parametrize("direction", [None, DIRECTION])
def test_every_draft_is_valid_and_lint_clean(bank, direction):
    for behavior in all_behaviors(bank, direction):
        data = draft(bank, behavior, direction)
        findings = check_data(data, MANTLE, bank)
        assert findings == [], (behavior.id, [(f.code, f.path, f.message) for f in findings])
        scenario = data["scenario"]
        assert scenario["name"] == behavior.title
        assert scenario["type"] == behavior.type
        assert scenario["goals"]["assertions"], behavior.id
        assert scenario["goals"]["criteria"], behavior.id


def test_drafts_are_deterministic(bank):
    for behavior in all_behaviors(bank, DIRECTION):
        first = MANTLE.dump(draft(bank, behavior, DIRECTION))
        second = MANTLE.dump(draft(bank, behavior, DIRECTION))
        assert first == second, behavior.id


async def test_the_offline_engine_drafts_mantle(bank):
    behavior = plan_mantle(bank, "check_balance", None).behaviors[0]
    result = await OfflineEngine().draft(DraftContext(bank, "mantle", behavior))
    assert result.data == draft(bank, behavior)


def test_contexts_are_fact_sheets_the_offline_simulator_reads(bank):
    names = set()
    for behavior in all_behaviors(bank):
        context = draft(bank, behavior)["scenario"]["simulation_context"]
        assert is_fact_context(context), behavior.id
        assert quoted_user_lines(context) == [], behavior.id  # no numbered steps
        parsed = parse_fact_context(context)
        assert parsed.render() == context, behavior.id
        assert parsed.persona and parsed.intent.startswith("want"), behavior.id
        assert parsed.until, behavior.id
        labels = [f.label for f in parsed.facts]
        assert len(labels) == len(set(labels)), behavior.id
        said = [f.value for f in parsed.facts] + [c.line for c in parsed.cues]
        said += [parsed.opening or "", parsed.before_end or "", parsed.after_first or ""]
        for words in said:
            assert not re.search(r"\b[a-z]+_[a-z_]+\b", words), (behavior.id, words)
            assert words not in FILLER, (behavior.id, words)
        names.add(parsed.persona.split(",")[0])
    # every persona is the holder of a seeded caller of the project's records, and the
    # suite's cases are spread over them
    holders = {
        f"{c.details['first_name']} {c.details['last_name']}"
        for c in callers_in(load_records(bank.root))
    }
    assert names <= holders and len(names) >= 6, names


def test_card_replace_facts_follow_the_skill(bank):
    plan = {b.case: b for b in plan_mantle(bank, "card_replace", None).behaviors}
    context = parse_fact_context(draft(bank, plan["stolen"])["scenario"]["simulation_context"])
    facts = {f.label: f.value for f in context.facts}
    # the caller is one of the project's own staging records, not a built-in account
    callers = callers_in(load_records(bank.root))
    customer = next(c for c in callers if c.details["date_of_birth"] == facts["date of birth"])
    assert customer.source == "data/staging/customers.json"
    assert context.persona.startswith(customer.name + " ")  # the seeded account's holder
    assert facts == {
        "date of birth": customer.details["date_of_birth"],
        "postcode": customer.details["postcode"],
        "which one needs replacing": "Everyday Debit ending 4821",
        "what happened to the card": "stolen",
        "how should we send the new card": "standard",
        "whether you have seen payments you don't recognise": "no",
    }
    assert context.intent == "want to replace a card"
    assert context.confirm == "agree" and context.closes_on_else
    refused = draft(bank, plan["refused_place_replacement_order"])["scenario"]
    assert parse_fact_context(refused["simulation_context"]).confirm == "decline"
    up_front = draft(bank, plan["details_up_front"])["scenario"]
    parsed = parse_fact_context(up_front["simulation_context"])
    assert (
        parsed.opening == "Can you send me a replacement card? It never arrived. Standard, please."
    )
    escalation = parse_fact_context(
        draft(bank, plan["escalation"])["scenario"]["simulation_context"]
    )
    # the hand-off tool writes a transfer reference: the user waits for it before stopping
    assert "transfer reference" in (escalation.until or "") and not escalation.closes_on_else


def test_seeds_are_channel_context_only(bank):
    for behavior in all_behaviors(bank):
        slots = draft(bank, behavior)["scenario"]["setup"]["initial_slots"]
        assert set(slots) == {"project.caller_phone", "project.preferred_language"}
    plan = {b.case: b for b in plan_mantle(bank, "card_replace", None).behaviors}
    failing = draft(bank, plan["place_replacement_order_fails"])["scenario"]
    assert failing["setup"]["initial_slots"]["project.caller_phone"] == FAILING_ACCOUNT
    negative = draft(bank, plan["not_eligible"])["scenario"]
    assert negative["setup"]["initial_slots"]["project.caller_phone"] == NEGATIVE_ACCOUNT


def test_refusal_asserts_what_every_correct_agent_does_after_a_decline(bank):
    plan = {b.case: b for b in plan_mantle(bank, "card_replace", None).behaviors}
    goals = draft(bank, plan["refused_place_replacement_order"])["scenario"]["goals"]
    assertions = goals["assertions"]
    # the gate's question and its denial response show the decline happened at the gate
    said = [a["bot_uttered"]["utter_name"] for a in assertions if "bot_uttered" in a]
    assert said == ["utter_confirm_order", "utter_order_not_placed"]
    assert {"bot_did_not_utter": {"utter_name": "utter_order_placed"}} in assertions
    assert {"memory_was_not_set": [{"name": "card_replace.order_id"}]} in assertions
    # what the customer answered before the gate is recorded whoever asks for the go-ahead
    recorded = [i["name"] for a in assertions for i in a.get("memory_was_set") or []]
    assert "card_replace.selected_card_id" in recorded
    assert not any(
        "tool_executed" in a and a["tool_executed"]["tool_name"] == "place_replacement_order"
        for a in assertions
    )
    # the unsaid success response and unset order id say the tool never ran; a criterion
    # naming the run would ask a judge for what no transcript shows
    assert not any("never runs" in c for c in goals["criteria"])
    assert any("does not say it went on to" in c for c in goals["criteria"])


def test_happy_path_assertions_are_structural(bank):
    plan = {b.case: b for b in plan_mantle(bank, "card_replace", None).behaviors}
    assertions = draft(bank, plan["damaged"])["scenario"]["goals"]["assertions"]
    # complete_when waits for the order id the card service answers: no case's to assert
    assert {"skill_completed": {"skill_id": "card_replace"}} not in assertions
    # the block writes out its own END step: which step the completion names is not fixed
    completed = {"skill_id": "card_replace", "block_id": "pick_card"}
    assert {"ordered_block_completed": completed} in assertions
    memory = next(a["memory_was_set"] for a in assertions if "memory_was_set" in a)
    assert {"name": "card_replace.replacement_reason", "value": "damaged"} in memory
    assert {
        "memory_was_not_set": [
            {"name": "card_replace.fraud_reported"},
            {"name": "card_replace.card_blocked"},
        ]
    } in assertions
    order = next(
        a["tool_executed"]
        for a in assertions
        if a.get("tool_executed", {}).get("tool_name") == "order_replacement"
    )
    assert order == {
        "tool_name": "order_replacement",
        "source": "local",
        "skill_id": "card_replace",
        "arguments": {"shipping": "standard"},
    }  # the call and its arguments; whether the card service accepts it is its answer
    sequencing = next(a["sequencing"] for a in assertions if "sequencing" in a)
    assert sequencing[0] == {"skill_activated": {"skill_id": "card_replace"}}
    assert {"skill_completed": {"skill_id": "card_replace"}} not in sequencing
    assert not any("text_matches" in str(a) for a in assertions)


def test_digression_and_escalation_assertions(bank):
    plan = {b.case: b for b in plan_mantle(bank, "card_replace", None).behaviors}
    digression = draft(bank, plan["digression"])["scenario"]["goals"]["assertions"]
    assert {"skill_interrupted": {"skill_id": "card_replace", "step_id": "select_card"}} in (
        digression
    )
    assert {"skill_resumed": {"skill_id": "card_replace", "step_id": "select_card"}} in digression
    # and what the resumed skill still does: its block completes after the resume, and the
    # card is blocked for the reason the user gave; the order `requires` the block to have
    # gone through at the card service, and the user approves it at its gate: asserted (the
    # case holds where the card service accepts the block), never left to a criterion
    block = next(
        a["tool_executed"]
        for a in digression
        if a.get("tool_executed", {}).get("tool_name") == "block_card"
    )
    assert "is_error" not in block and block["arguments"]["reason"] == "lost"
    assert any(
        a.get("tool_executed", {}).get("tool_name") == "place_replacement_order" for a in digression
    )
    criteria = draft(bank, plan["digression"])["scenario"]["goals"]["criteria"]
    assert not any(c.startswith("If block_card succeeds") for c in criteria)
    steps = next(a["sequencing"] for a in digression if "sequencing" in a)
    resumed = steps.index({"skill_resumed": {"skill_id": "card_replace", "step_id": "select_card"}})
    done = [i for i, s in enumerate(steps) if "ordered_block_completed" in s]
    assert done and done[0] > resumed
    escalation = draft(bank, plan["escalation"])["scenario"]["goals"]["assertions"]
    assert {"skill_activated": {"skill_id": "human_handoff"}} in escalation
    recorded = [i for a in escalation for i in a.get("memory_was_set") or []]
    # the queue is the model's reading of the request ("the team that fits": a lost card is
    # cards, a stolen one may be fraud): asserted written, its value left to the agent
    assert {"name": "human_handoff.handoff_queue"} in recorded
    # the transfer's reference is what the outside service answers: never asserted
    assert "human_handoff.transfer_reference" not in [i["name"] for i in recorded]


def test_direction_changes_persona_criteria_assertions_and_value(bank):
    plain = {b.case: b for b in plan_mantle(bank, "card_replace", None).behaviors}
    directed = {b.case: b for b in plan_mantle(bank, "card_replace", DIRECTION).behaviors}
    before = draft(bank, plain["damaged"])["scenario"]
    after = draft(bank, directed["damaged"], DIRECTION)["scenario"]
    first_line = after["simulation_context"].splitlines()[0]
    assert first_line.endswith(", an impatient customer with a cracked chip.")
    assert "impatient" not in before["simulation_context"]
    assert "The reason is never asked twice" in after["goals"]["criteria"]
    assert "The reason is never asked twice" not in before["goals"]["criteria"]
    # value choice: the correction case now replaces a damaged card (order_replacement)
    corrected = draft(bank, directed["correction"], DIRECTION)["scenario"]
    facts = parse_fact_context(corrected["simulation_context"]).facts
    assert ("what happened to the card", "damaged") in [(f.label, f.value) for f in facts]
    # a tool that must not run becomes a criterion and a never-uttered success response
    refuse = plan_mantle(bank, "card_replace", "make sure place_replacement_order is not called")
    case = next(b for b in refuse.behaviors if b.case == "refused_place_replacement_order")
    goals = draft(bank, case, "make sure place_replacement_order is not called")["scenario"]
    assert "place_replacement_order is never called" in goals["goals"]["criteria"]


def test_direction_parser_rules():
    choices = [
        Choice(
            "card_replace.replacement_reason",
            "damaged",
            (
                "also a chip or stripe that stopped working, or a bent or cracked card",
                "It's damaged",
            ),
        ),
        Choice("card_replace.replacement_reason", "lost", ("I lost it",)),
        Choice("card_replace.replacement_reason", "not_received", ("It never arrived",)),
    ]
    parsed = parse_direction(
        "Generate a scenario where an impatient customer wants a replacement for a card with a "
        "cracked chip. Assert that card_replace completes and that the agent never asks for "
        "the reason twice.",
        skills=["card_replace"],
        tools=["place_replacement_order"],
        choices=choices,
    )
    assert parsed.persona == (
        "You are an impatient customer who wants a replacement for a card with a cracked chip."
    )
    assert [(r.text, r.check) for r in parsed.requirements] == [
        ("card_replace completes", "skill_completed"),
        ("The agent never asks for the reason twice", None),
    ]
    assert parsed.values == {"card_replace.replacement_reason": "damaged"}
    # requirement clauses select a value only by its own words
    assert (
        parse_direction("check that the reason is never asked twice", choices=choices).values == {}
    )
    assert parse_direction("a customer whose card never arrived", choices=choices).values == {
        "card_replace.replacement_reason": "not_received"
    }
    tool = parse_direction(
        "ensure place_replacement_order is not called", tools=["place_replacement_order"]
    )
    assert tool.requirements[0].check == "tool_not_executed"
    assert "refusal" in parse_direction("the customer refuses the order").themes
    assert parse_direction(None).empty
