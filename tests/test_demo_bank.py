"""The `demo:bank` agent plays every bank case, generated and hand-written, to passing events.

A small in-test player drives the offline simulator itself (`make_simulator`, engine
`offline`): a fact-sheet context is answered question by question from its facts, a
hand-written context with numbered steps replays its quoted lines. It stops when the simulator
is done or the agent ends the conversation, and checks `goals.assertions` against the
recorded events with `evaluate_mantle`. Freshly drafted suites (`draft_bank_suite`) are
played too, so the drafter and the simulator are held together. The demo's mutation flags
must make the cases about what they break fail.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest
from conftest import EXAMPLES, REPO

from evalcore.agents import UserTurn
from evalcore.agents.demo import demo_names, make_demo_target
from evalcore.agents.reference._mantle_engine import holds
from evalcore.assertions import evaluate_mantle
from evalcore.definitions import load_project
from evalcore.errors import UserError
from evalcore.runner import RunCase, load_run_cases
from evalcore.simulator import SimulationError, SimulatorSettings, Utterance, make_simulator

GENERATED = sorted((REPO / "generated_cases" / "mantle").rglob("*.yml"))
HANDWRITTEN = sorted((EXAMPLES / "bank" / "eval" / "scenarios").glob("*.yml"))


BANK = load_project(EXAMPLES / "bank")
SETTINGS = SimulatorSettings(project=BANK)
MAX_TURNS = 30


def load(path: Path) -> RunCase:
    (case,) = load_run_cases(path)
    return case


async def play(case: RunCase, **flags: Any) -> tuple[list[dict[str, Any]], list[Any]]:
    """Play the case against demo:bank; (final events, failed assertion results)."""
    assert case.simulate is not None
    simulator = make_simulator(case.simulate, dialect="mantle", settings=SETTINGS)
    target = make_demo_target("bank", **flags)
    session = await target.open(case, 1)
    reply = await session.send(UserTurn(type="start", setup=case.setup))
    history = [Utterance(0, "agent", m.text or "") for m in reply.messages]
    for turn in range(1, MAX_TURNS + 1):
        step = await simulator.next_step(history)
        if step.done:
            break
        history.append(Utterance(turn, "user", step.message))
        reply = await session.send(UserTurn(type="text", text=step.message))
        history += [Utterance(turn, "agent", m.text or "") for m in reply.messages]
        if reply.ended:
            break
    final = await session.close()
    results = evaluate_mantle(case.checks, final.events)
    return final.events or [], [r for r in results if not r.passed]


def run(case: RunCase, **flags: Any) -> list[Any]:
    return asyncio.run(play(case, **flags))[1]


def test_there_are_cases_to_play():
    # (the not-eligible and dispute-not-opened sad paths are no longer written: only the
    # card and disputes services' answers take those branches)
    assert len(GENERATED) >= 28
    assert len(HANDWRITTEN) == 5


#: Hand-written cases whose persona lacks what any correct bank agent must ask for: they
#: play offline (free prose is read for its facts) but cannot finish.
UNDER_SPECIFIED = {
    "card_replace_damaged": "the persona gives no date of birth or postcode and seeds no "
    "caller phone, so the caller cannot be verified",
}


@pytest.mark.parametrize("path", GENERATED + HANDWRITTEN, ids=lambda p: p.stem)
def test_every_case_passes_against_demo_bank(path: Path):
    case = load(path)
    try:
        make_simulator(case.simulate, dialect="mantle", settings=SETTINGS)
    except SimulationError:
        pytest.skip("free prose without facts or quoted steps: only a model can play it")
    if path.stem in UNDER_SPECIFIED:
        events, failed = asyncio.run(play(case))
        asked = " ".join(e.get("text") or "" for e in events if e["event"] == "bot")
        assert failed and "date of birth" in asked, UNDER_SPECIFIED[path.stem]
        return
    failed = run(case)
    assert not failed, [f"{r.type}: {r.detail}" for r in failed]


def test_every_freshly_drafted_case_passes_against_demo_bank(tmp_path: Path):
    """The offline drafter's current output (not only the committed suite) plays to
    passing events: contexts, facts and the simulator agree."""
    from agentflows.drafting import DraftContext
    from agentflows.drafting.offline._mantle import draft_mantle
    from agentflows.planning._mantle import plan_mantle
    from evalcore.dialects import get_dialect

    dialect = get_dialect("mantle")
    failures = {}
    for skill in sorted(BANK.mantle.skills):
        for behavior in plan_mantle(BANK, skill, None).behaviors:
            path = tmp_path / f"{behavior.id.replace(':', '_')}.yml"
            path.write_text(dialect.dump(draft_mantle(DraftContext(BANK, "mantle", behavior))))
            failed = run(load(path))
            if failed:
                failures[behavior.id] = [f"{r.type}: {r.detail}" for r in failed]
    assert not failures, failures


def generated(name: str) -> RunCase:
    (path,) = [p for p in GENERATED if p.stem == name]
    return load(path)


def failing(name: str, **flags: Any) -> set[str]:
    case = (
        generated(name)
        if not name.startswith("hand:")
        else load(EXAMPLES / "bank" / "eval" / "scenarios" / f"{name[5:]}.yml")
    )
    return {r.type for r in run(case, **flags)}


def test_skip_confirmation_breaks_refused_confirmation():
    assert "memory_was_not_set" in failing(
        "card_replace_refused_place_replacement_order_edge_case", skip_confirmation=True
    )
    assert "bot_did_not_utter" in failing(
        "card_replace_refused_order_replacement_edge_case", skip_confirmation=True
    )
    assert failing("hand:card_replace_refused_confirmation", skip_confirmation=True)


def test_a_happy_path_asserts_the_outside_call_never_the_service_answer():
    # the bank's tools call its card service over HTTP: whether that service accepts the
    # order no case decides, so a correct agent whose order the service refuses still
    # passes (the call was made; its success reply is only a conditional criterion)
    assert not failing("card_replace_lost_happy_path", fail_tool="place_replacement_order")
    assert not failing("card_replace_damaged_happy_path", fail_tool="place_replacement_order")


def test_forget_reason_breaks_out_of_order_input():
    broken = failing("card_replace_details_up_front_edge_case", forget_reason=True)
    assert "bot_did_not_utter" in broken


def test_ignore_digression_breaks_digression_and_resume():
    broken = failing("card_replace_digression_edge_case", ignore_digression=True)
    assert {"skill_interrupted", "skill_resumed"} <= broken


def test_ignore_handoff_breaks_escalation():
    assert "skill_activated" in failing("card_replace_escalation", ignore_handoff=True)


def test_events_are_rasa_wire_format_and_deterministic():
    case = generated("card_replace_stolen_happy_path")
    events, failed = asyncio.run(play(case))
    again, _ = asyncio.run(play(case))
    assert not failed and events == again
    kinds = [e["event"] for e in events]
    assert kinds[:3] == ["memory_set", "memory_set", "memory_set"]  # session start seeds
    assert events[0]["key"] == "session_started_metadata"
    assert events[1] == {
        "event": "memory_set",
        "key": "project.caller_phone",
        "value": case.setup["initial_slots"]["project.caller_phone"],
        "timestamp": events[1]["timestamp"],
    }
    assert all(isinstance(e["timestamp"], float) for e in events)
    bot = next(
        e
        for e in events
        if e["event"] == "bot"
        and e["metadata"].get("utter_action") == "utter_ask_replacement_reason"
    )
    assert {
        "title": "It was stolen",
        "payload": "set:session.card_replace.replacement_reason=stolen",
    } in bot["data"]["buttons"]
    block = next(
        e for e in events if e["event"] == "tool_executed" and e["tool_name"] == "block_card"
    )
    assert block["arguments"] == {"card_id": block["arguments"]["card_id"], "reason": "stolen"}
    assert block["source"] == "local" and block["is_error"] is False
    assert block["metadata"] == {"skill_id": "card_replace"}
    mcp = next(
        e
        for e in events
        if e["event"] == "tool_executed" and e["tool_name"] == "get_mailing_address"
    )
    assert mcp["source"] == "mcp" and mcp["mcp_server"] == "crm"
    assert kinds.count("user") == kinds.count("action")
    assert {
        "event": "ordered_block_entered",
        "skill_id": "card_replace",
        "block_id": "pick_card",
    }.items() <= next(e for e in events if e["event"] == "ordered_block_entered").items()


async def test_session_protocol_and_state():
    target = make_demo_target("bank")
    assert target.spec == "demo:bank"
    session = await target.open({"slug": "x", "setup": {}}, 1)
    await session.send(
        UserTurn(
            type="start",
            setup={
                "initial_slots": {
                    "project.caller_phone": "+15550142",
                    "project.customer_id": "C-20481734",
                    "card_replace.replacement_reason": "lost",
                }
            },
        )
    )
    reply = await session.send(UserTurn(type="text", text="What's my balance?"))
    assert reply.messages[-1].response is None  # the verification question is free text
    assert reply.state["skills"] == ["check_balance"]
    reply = await session.send(UserTurn(type="text", text="14 March 1986, postcode 94110"))
    reply = await session.send(UserTurn(type="text", text="Credit card, please."))
    assert [m.response for m in reply.messages][:1] == ["utter_pending_transactions_note"]
    assert "owe $634.80" in reply.messages[1].text
    final = await session.close()
    assert final.state["memory"]["check_balance.account_type"] == "credit_card"
    slots = [e for e in final.events if e["event"] == "slot"]
    assert [s["name"] for s in slots] == ["card_replace.replacement_reason"]  # not a seed field
    assert "card_replace.replacement_reason" not in final.state["memory"]


async def test_wrong_identity_details_are_asked_again_without_saying_which():
    session = await make_demo_target("bank").open(
        {"setup": {"initial_slots": {"project.caller_phone": "+15550177"}}}, 1
    )
    await session.send(UserTurn(type="text", text="What's my balance?"))
    reply = await session.send(UserTurn(type="text", text="3 July 1979, postcode 60614"))
    checks = [e for e in reply.events if e["event"] == "tool_executed"]
    assert [(e["tool_name"], e["result"]["verified"]) for e in checks] == [
        ("verify_identity", False)
    ]
    again = reply.messages[-1].text
    # asked again for both, so it does not say which one was wrong
    assert "don't match" in again and "date of birth" in again and "postcode" in again
    reply = await session.send(UserTurn(type="text", text="2 July 1979, postcode 60614"))
    assert "checking, savings or credit card" in reply.messages[-1].text


async def test_a_caller_who_cannot_be_verified_is_handed_over_after_three_tries():
    session = await make_demo_target("bank").open(
        {"setup": {"initial_slots": {"project.caller_phone": "+15550177"}}}, 1
    )
    await session.send(UserTurn(type="text", text="I lost my card"))
    for _ in range(3):
        reply = await session.send(UserTurn(type="text", text="3 July 1979, postcode 60614"))
    final = await session.close()
    checks = [e for e in final.events if e.get("tool_name") == "verify_identity"]
    assert len(checks) == 3 and not any(e["result"]["verified"] for e in checks)
    assert {"event": "skill_activated", "skill_id": "human_handoff"}.items() <= next(
        e for e in reply.events if e["event"] == "skill_activated"
    ).items()
    assert not any(e.get("tool_name") == "list_cards" for e in final.events)


def test_registry_and_conditions():
    assert "bank" in demo_names()
    with pytest.raises(UserError, match="unknown demo agent 'bnak'"):
        make_demo_target("bnak")
    with pytest.raises(UserError, match="demo:bank"):
        make_demo_target("bank", no_such_flag=True)
    memory = {"card_replace.replacement_reason": "lost", "card_replace.card_blocked": True}
    assert holds(
        "session.card_replace.replacement_reason == 'lost' and session.card_replace.card_blocked",
        memory,
    )
    assert not holds("session.card_replace.replacement_reason != 'lost'", memory)
    assert holds("not (session.x.y or session.card_replace.shipping_method)", memory)


async def test_cancel_and_unrelated_requests():
    session = await make_demo_target("bank").open(
        {
            "setup": {
                "initial_slots": {
                    "project.caller_phone": "+15550142",
                    "project.customer_id": "C-20481734",
                }
            }
        },
        1,
    )
    reply = await session.send(UserTurn(type="text", text="What's the weather tomorrow?"))
    assert [m.response for m in reply.messages] == ["utter_cannot_help"]
    await session.send(UserTurn(type="text", text="I lost my card"))
    await session.send(UserTurn(type="text", text="14 March 1986, postcode 94110"))
    reply = await session.send(UserTurn(type="text", text="Never mind, cancel that."))
    events = [e for e in reply.events if e["event"].endswith("cancelled")]
    assert events == [
        {
            "event": "ordered_block_cancelled",
            "skill_id": "card_replace",
            "block_id": "pick_card",
            "step_id": "select_card",
            "timestamp": events[0]["timestamp"],
        },
        {
            "event": "skill_cancelled",
            "skill_id": "card_replace",
            "step_id": "select_card",
            "timestamp": events[1]["timestamp"],
        },
    ]
    assert reply.messages[-1].response == "utter_anything_else"
    final = await session.close()
    # "I lost my card" named the reason before the agent asked for it
    assert final.state["memory"]["card_replace.replacement_reason"] == "lost"
