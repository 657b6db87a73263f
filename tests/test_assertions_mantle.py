"""Mantle assertion semantics as a table: (event log, assertion, expected verdict).

Each row is one rule of reference §2.1 (or one decision documented in evalcore.assertions
where the reference is silent). The event logs are built with tiny helpers in the tracker wire
format of reference §6, so each row reads as the conversation it stands for.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from evalcore.assertions import AssertionResult, evaluate_mantle, parse_events
from evalcore.assertions._compare import values_equal
from evalcore.dialects import get_dialect
from evalcore.errors import UserError

DATA = Path(__file__).parent / "data" / "events"
TRACKER = DATA / "card_replace_damaged.json"
SCENARIO = DATA / "card_replace_damaged.scenario.yml"

# --- event builders (wire format) --------------------------------------------------------


def user(text: str = "hi") -> dict[str, Any]:
    return {"event": "user", "text": text}


def bot(text: str = "ok", utter: str | None = None, buttons: list | None = None) -> dict:
    event: dict[str, Any] = {"event": "bot", "text": text}
    if buttons is not None:
        event["data"] = {"buttons": buttons}
    if utter:
        event["metadata"] = {"utter_action": utter}
    return event


def skill(kind: str, skill_id: str = "card_replace", step_id: str | None = None) -> dict:
    # Rasa's tracker writes step_id (null when none) on the events that carry one.
    event = {"event": f"skill_{kind}", "skill_id": skill_id}
    if step_id or kind in ("cancelled", "interrupted", "resumed"):
        event["step_id"] = step_id
    return event


def block(
    kind: str,
    block_id: str = "pick_card",
    step_id: str | None = None,
    skill_id: str = "card_replace",
) -> dict:
    event = {"event": f"ordered_block_{kind}", "skill_id": skill_id, "block_id": block_id}
    if step_id or kind != "entered":
        event["step_id"] = step_id
    return event


def mset(key: str, value: Any) -> dict:
    return {"event": "memory_set", "key": key, "value": value}


def mclear(key: str) -> dict:
    return {"event": "memory_cleared", "key": key}


def slot(name: str, value: Any) -> dict:
    return {"event": "slot", "name": name, "value": value}


def tool(
    name: str,
    source: str = "local",
    *,
    args: dict | None = None,
    is_error: bool = False,
    mcp_server: str | None = None,
    skill_id: str | None = None,
) -> dict:
    event: dict[str, Any] = {
        "event": "tool_executed",
        "tool_name": name,
        "arguments": args or {},
        "source": source,
        "result": None,
        "is_error": is_error,
        "error_message": "boom" if is_error else None,
    }
    if mcp_server:
        event["mcp_server"] = mcp_server
    if skill_id:
        event["metadata"] = {"skill_id": skill_id}
    return event


def call(name: str, source: str = "local", **extra: Any) -> dict:
    return {"tool_executed": {"tool_name": name, "source": source, **extra}}


def within(*calls: dict, extra: bool, ordered: bool | None = None) -> dict:
    spec: dict[str, Any] = {"calls": list(calls), "allow_extra_calls": extra}
    if ordered is not None:
        spec["ordered"] = ordered
    return {"tools_within_one_turn": spec}


REASON = "card_replace.replacement_reason"
CR = {"skill_id": "card_replace"}
PICK = {"skill_id": "card_replace", "block_id": "pick_card"}
PLACE = {"tool_name": "place_replacement_order", "source": "local"}

# --- the table ---------------------------------------------------------------------------

CASES = [
    # skills
    ("skill: activated matches", [skill("activated")], {"skill_activated": CR}, True),
    ("skill: other skill id", [skill("activated", "card_block")], {"skill_activated": CR}, False),
    ("skill: type must agree", [skill("activated")], {"skill_completed": CR}, False),
    ("skill: never matches block event", [block("completed")], {"skill_completed": CR}, False),
    ("skill: never matches block entered", [block("entered")], {"skill_activated": CR}, False),
    (
        "skill: step_id equal",
        [skill("interrupted", step_id="select_card")],
        {"skill_interrupted": {**CR, "step_id": "select_card"}},
        True,
    ),
    (
        "skill: step_id differs",
        [skill("interrupted", step_id="autonomous")],
        {"skill_interrupted": {**CR, "step_id": "select_card"}},
        False,
    ),
    (
        "skill: no step_id given, any step",
        [skill("cancelled", step_id="autonomous")],
        {"skill_cancelled": CR},
        True,
    ),
    (
        "skill: resumed with step",
        [skill("resumed", step_id="select_card")],
        {"skill_resumed": {**CR, "step_id": "select_card"}},
        True,
    ),
    (
        "skill: step_id rejected on activated",
        [skill("activated")],
        {"skill_activated": {**CR, "step_id": "x"}},
        False,
    ),
    # ordered blocks
    (
        "block: completed matches",
        [block("completed", step_id="select_card")],
        {"ordered_block_completed": PICK},
        True,
    ),
    (
        "block: other block id",
        [block("completed", "confirm")],
        {"ordered_block_completed": PICK},
        False,
    ),
    (
        "block: other skill id",
        [block("completed", skill_id="card_block")],
        {"ordered_block_completed": PICK},
        False,
    ),
    (
        "block: never matches skill event",
        [skill("completed")],
        {"ordered_block_completed": PICK},
        False,
    ),
    ("block: entered matches", [block("entered")], {"ordered_block_entered": PICK}, True),
    (
        "block: step_id equal",
        [block("interrupted", step_id="select_card")],
        {"ordered_block_interrupted": {**PICK, "step_id": "select_card"}},
        True,
    ),
    (
        "block: step_id differs",
        [block("cancelled", step_id="check_eligibility")],
        {"ordered_block_cancelled": {**PICK, "step_id": "select_card"}},
        False,
    ),
    (
        "block: resumed",
        [block("resumed", step_id="select_card")],
        {"ordered_block_resumed": PICK},
        True,
    ),
    # memory_was_set
    (
        "set: any write, no value",
        [mset(REASON, "lost")],
        {"memory_was_set": [{"name": REASON}]},
        True,
    ),
    (
        "set: value equal",
        [mset(REASON, "damaged")],
        {"memory_was_set": [{"name": REASON, "value": "damaged"}]},
        True,
    ),
    (
        "set: value differs",
        [mset(REASON, "lost")],
        {"memory_was_set": [{"name": REASON, "value": "damaged"}]},
        False,
    ),
    (
        "set: some write equals (not only the last)",
        [mset(REASON, "damaged"), mset(REASON, "lost")],
        {"memory_was_set": [{"name": REASON, "value": "damaged"}]},
        True,
    ),
    (
        "set: bool true != string 'true'",
        [mset("project.authenticated", "true")],
        {"memory_was_set": [{"name": "project.authenticated", "value": True}]},
        False,
    ),
    (
        "set: string 'true' != bool true",
        [mset("project.authenticated", True)],
        {"memory_was_set": [{"name": "project.authenticated", "value": "true"}]},
        False,
    ),
    (
        "set: bool equals bool",
        [mset("project.authenticated", True)],
        {"memory_was_set": [{"name": "project.authenticated", "value": True}]},
        True,
    ),
    (
        "set: 5 != '5'",
        [mset("card_replace.count", "5")],
        {"memory_was_set": [{"name": "card_replace.count", "value": 5}]},
        False,
    ),
    (
        "set: '5' != 5",
        [mset("card_replace.count", 5)],
        {"memory_was_set": [{"name": "card_replace.count", "value": "5"}]},
        False,
    ),
    (
        "set: 1 == true (Python ==, as Rasa compares)",
        [mset("card_replace.count", True)],
        {"memory_was_set": [{"name": "card_replace.count", "value": 1}]},
        True,
    ),
    (
        "set: int 5 equals float 5.0 (documented)",
        [mset("card_replace.fee", 5.0)],
        {"memory_was_set": [{"name": "card_replace.fee", "value": 5}]},
        True,
    ),
    (
        "set: object in any key order",
        [mset("card_replace.address", {"zip": "10001", "city": "NY"})],
        {
            "memory_was_set": [
                {"name": "card_replace.address", "value": {"city": "NY", "zip": "10001"}}
            ]
        },
        True,
    ),
    (
        "set: nested object type-strict",
        [mset("card_replace.address", {"zip": 10001})],
        {"memory_was_set": [{"name": "card_replace.address", "value": {"zip": "10001"}}]},
        False,
    ),
    (
        "set: object with extra key differs",
        [mset("card_replace.address", {"zip": "1", "c": "2"})],
        {"memory_was_set": [{"name": "card_replace.address", "value": {"zip": "1"}}]},
        False,
    ),
    (
        "set: list same order",
        [mset("card_replace.cards", ["a", "b"])],
        {"memory_was_set": [{"name": "card_replace.cards", "value": ["a", "b"]}]},
        True,
    ),
    (
        "set: list other order",
        [mset("card_replace.cards", ["a", "b"])],
        {"memory_was_set": [{"name": "card_replace.cards", "value": ["b", "a"]}]},
        False,
    ),
    (
        "set: never matches a CALM slot event",
        [slot(REASON, "damaged")],
        {"memory_was_set": [{"name": REASON}]},
        False,
    ),
    (
        "set: every item must match",
        [mset(REASON, "damaged")],
        {"memory_was_set": [{"name": REASON}, {"name": "card_replace.shipping"}]},
        False,
    ),
    (
        "set: all items match",
        [mset(REASON, "damaged"), mset("card_replace.shipping", "standard")],
        {"memory_was_set": [{"name": REASON}, {"name": "card_replace.shipping"}]},
        True,
    ),
    (
        "set: written then cleared still passes",
        [mset(REASON, "lost"), mclear(REASON)],
        {"memory_was_set": [{"name": REASON, "value": "lost"}]},
        True,
    ),
    (
        "set: value null rejected",
        [mset(REASON, None)],
        {"memory_was_set": [{"name": REASON, "value": None}]},
        False,
    ),
    # memory_was_not_set
    (
        "not_set: never written",
        [mset("card_replace.other", 1)],
        {"memory_was_not_set": [{"name": REASON}]},
        True,
    ),
    (
        "not_set: written fails",
        [mset(REASON, "lost")],
        {"memory_was_not_set": [{"name": REASON}]},
        False,
    ),
    (
        "not_set: written then cleared fails",
        [mset(REASON, "lost"), mclear(REASON)],
        {"memory_was_not_set": [{"name": REASON}]},
        False,
    ),
    (
        "not_set: slot event is not a write",
        [slot(REASON, "lost")],
        {"memory_was_not_set": [{"name": REASON}]},
        True,
    ),
    (
        "not_set value: earlier write equals, last does not",
        [mset(REASON, "lost"), mset(REASON, "damaged")],
        {"memory_was_not_set": [{"name": REASON, "value": "lost"}]},
        True,
    ),
    (
        "not_set value: last write equals",
        [mset(REASON, "damaged"), mset(REASON, "lost")],
        {"memory_was_not_set": [{"name": REASON, "value": "lost"}]},
        False,
    ),
    (
        "not_set value: never written",
        [],
        {"memory_was_not_set": [{"name": REASON, "value": "lost"}]},
        True,
    ),
    (
        "not_set value: type-strict",
        [mset("project.authenticated", "true")],
        {"memory_was_not_set": [{"name": "project.authenticated", "value": True}]},
        True,
    ),
    (
        "not_set value: last write then cleared still fails",
        [mset(REASON, "lost"), mclear(REASON)],
        {"memory_was_not_set": [{"name": REASON, "value": "lost"}]},
        False,
    ),
    # memory_was_cleared
    (
        "cleared: cleared",
        [mset(REASON, "lost"), mclear(REASON)],
        {"memory_was_cleared": [{"name": REASON}]},
        True,
    ),
    (
        "cleared: only written",
        [mset(REASON, "lost")],
        {"memory_was_cleared": [{"name": REASON}]},
        False,
    ),
    (
        "cleared: every item",
        [mclear(REASON)],
        {"memory_was_cleared": [{"name": REASON}, {"name": "card_replace.shipping"}]},
        False,
    ),
    (
        "cleared: value not allowed",
        [mclear(REASON)],
        {"memory_was_cleared": [{"name": REASON, "value": "x"}]},
        False,
    ),
    # tool_executed
    ("tool: name and source", [tool("place_replacement_order")], {"tool_executed": PLACE}, True),
    ("tool: other tool", [tool("lookup_order")], {"tool_executed": PLACE}, False),
    (
        "tool: arguments subset",
        [tool("place_replacement_order", args={"shipping": "standard", "card_id": "c1"})],
        {"tool_executed": {**PLACE, "arguments": {"shipping": "standard"}}},
        True,
    ),
    (
        "tool: argument differs",
        [tool("place_replacement_order", args={"shipping": "express"})],
        {"tool_executed": {**PLACE, "arguments": {"shipping": "standard"}}},
        False,
    ),
    (
        "tool: argument missing",
        [tool("place_replacement_order", args={})],
        {"tool_executed": {**PLACE, "arguments": {"shipping": "standard"}}},
        False,
    ),
    (
        "tool: argument type-strict",
        [tool("place_replacement_order", args={"qty": "1"})],
        {"tool_executed": {**PLACE, "arguments": {"qty": 1}}},
        False,
    ),
    (
        "tool: object argument any key order",
        [tool("place_replacement_order", args={"addr": {"a": 1, "b": 2}})],
        {"tool_executed": {**PLACE, "arguments": {"addr": {"b": 2, "a": 1}}}},
        True,
    ),
    (
        "tool: is_error false matches ok run",
        [tool("place_replacement_order")],
        {"tool_executed": {**PLACE, "is_error": False}},
        True,
    ),
    (
        "tool: is_error false vs failed run",
        [tool("place_replacement_order", is_error=True)],
        {"tool_executed": {**PLACE, "is_error": False}},
        False,
    ),
    (
        "tool: is_error true",
        [tool("place_replacement_order", is_error=True)],
        {"tool_executed": {**PLACE, "is_error": True}},
        True,
    ),
    (
        "tool: is_error not given, failed run ok",
        [tool("place_replacement_order", is_error=True)],
        {"tool_executed": PLACE},
        True,
    ),
    (
        "tool: skill_id from metadata",
        [tool("place_replacement_order", skill_id="card_replace")],
        {"tool_executed": {**PLACE, "skill_id": "card_replace"}},
        True,
    ),
    (
        "tool: skill_id differs",
        [tool("place_replacement_order", skill_id="card_block")],
        {"tool_executed": {**PLACE, "skill_id": "card_replace"}},
        False,
    ),
    (
        "tool: skill_id absent on event",
        [tool("place_replacement_order")],
        {"tool_executed": {**PLACE, "skill_id": "card_replace"}},
        False,
    ),
    (
        "tool: local never matches mcp",
        [tool("lookup", "mcp", mcp_server="crm")],
        {"tool_executed": {"tool_name": "lookup", "source": "local"}},
        False,
    ),
    (
        "tool: mcp never matches local",
        [tool("lookup")],
        {"tool_executed": {"tool_name": "lookup", "source": "mcp", "mcp_server": "crm"}},
        False,
    ),
    (
        "tool: mcp server equal",
        [tool("lookup", "mcp", mcp_server="crm")],
        {"tool_executed": {"tool_name": "lookup", "source": "mcp", "mcp_server": "crm"}},
        True,
    ),
    (
        "tool: mcp server differs",
        [tool("lookup", "mcp", mcp_server="billing")],
        {"tool_executed": {"tool_name": "lookup", "source": "mcp", "mcp_server": "crm"}},
        False,
    ),
    (
        "tool: unknown key rejected",
        [tool("place_replacement_order")],
        {"tool_executed": {**PLACE, "argumets": {"shipping": "standard"}}},
        False,
    ),
    # tools_within_one_turn
    (
        "turn: same turn",
        [user(), tool("a"), tool("b")],
        within(call("a"), call("b"), extra=False),
        True,
    ),
    (
        "turn: across two turns",
        [user(), tool("a"), user(), tool("b")],
        within(call("a"), call("b"), extra=True),
        False,
    ),
    (
        "turn: before the first user message is turn 0",
        [tool("a"), user(), tool("b")],
        within(call("a"), call("b"), extra=True),
        False,
    ),
    (
        "turn: extra call, not allowed",
        [user(), tool("a"), tool("c"), tool("b")],
        within(call("a"), call("b"), extra=False),
        False,
    ),
    (
        "turn: extra call, allowed",
        [user(), tool("a"), tool("c"), tool("b")],
        within(call("a"), call("b"), extra=True),
        True,
    ),
    (
        "turn: extra in another turn is fine",
        [user(), tool("a"), tool("b"), user(), tool("c")],
        within(call("a"), call("b"), extra=False),
        True,
    ),
    (
        "turn: lifecycle tools ignored",
        [
            user(),
            tool("set_fields"),
            tool("a"),
            tool("complete"),
            tool("listen"),
            tool("b"),
            tool("hangup"),
        ],
        within(call("a"), call("b"), extra=False),
        True,
    ),
    (
        "turn: search_knowledge counted",
        [user(), tool("a"), tool("search_knowledge"), tool("b")],
        within(call("a"), call("b"), extra=False),
        False,
    ),
    (
        "turn: cannot_help counted",
        [user(), tool("a"), tool("b"), tool("cannot_help")],
        within(call("a"), call("b"), extra=False),
        False,
    ),
    (
        "turn: search_knowledge matchable",
        [user(), tool("search_knowledge"), tool("b")],
        within(call("search_knowledge"), call("b"), extra=False),
        True,
    ),
    (
        "turn: unordered by default",
        [user(), tool("b"), tool("a")],
        within(call("a"), call("b"), extra=False),
        True,
    ),
    (
        "turn: ordered false",
        [user(), tool("b"), tool("a")],
        within(call("a"), call("b"), extra=False, ordered=False),
        True,
    ),
    (
        "turn: ordered true, wrong order",
        [user(), tool("b"), tool("a")],
        within(call("a"), call("b"), extra=False, ordered=True),
        False,
    ),
    (
        "turn: ordered true, right order",
        [user(), tool("a"), tool("b")],
        within(call("a"), call("b"), extra=False, ordered=True),
        True,
    ),
    (
        "turn: ordered with gaps and extras allowed",
        [user(), tool("a"), tool("c"), tool("b")],
        within(call("a"), call("b"), extra=True, ordered=True),
        True,
    ),
    (
        "turn: distinct runs for distinct calls",
        [user(), tool("a")],
        within(call("a"), call("a"), extra=True),
        False,
    ),
    (
        "turn: same tool twice",
        [user(), tool("a"), tool("a")],
        within(call("a"), call("a"), extra=False),
        True,
    ),
    (
        "turn: matching is greedy without backtracking (as Rasa's)",
        [user(), tool("a", args={"x": 1, "y": 2}), tool("a", args={"x": 1})],
        within(call("a", arguments={"x": 1}), call("a", arguments={"y": 2}), extra=False),
        False,
    ),
    (
        "turn: call arguments compared",
        [user(), tool("a", args={"x": 2}), tool("b")],
        within(call("a", arguments={"x": 1}), call("b"), extra=True),
        False,
    ),
    (
        "turn: local call vs mcp run",
        [user(), tool("a", "mcp", mcp_server="crm"), tool("b")],
        within(call("a"), call("b"), extra=True),
        False,
    ),
    (
        "turn: second turn qualifies",
        [user(), tool("a"), user(), tool("a"), tool("b")],
        within(call("a"), call("b"), extra=False),
        True,
    ),
    (
        "turn: lifecycle call rejected",
        [user(), tool("complete"), tool("b")],
        within(call("complete"), call("b"), extra=True),
        False,
    ),
    # bot_uttered / bot_did_not_utter
    (
        "bot: utter_name",
        [bot("Done", "utter_order_placed")],
        {"bot_uttered": {"utter_name": "utter_order_placed"}},
        True,
    ),
    (
        "bot: other utter_name",
        [bot("Done", "utter_goodbye")],
        {"bot_uttered": {"utter_name": "utter_order_placed"}},
        False,
    ),
    (
        "bot: free text has no utter_name",
        [bot("Done")],
        {"bot_uttered": {"utter_name": "utter_order_placed"}},
        False,
    ),
    (
        "bot: text_matches searches",
        [bot("Your order R-1 is placed.")],
        {"bot_uttered": {"text_matches": "order R-\\d+"}},
        True,
    ),
    (
        "bot: text_matches is not fullmatch",
        [bot("Your order is placed.")],
        {"bot_uttered": {"text_matches": "order"}},
        True,
    ),
    (
        "bot: text_matches anchored",
        [bot("Your order is placed.")],
        {"bot_uttered": {"text_matches": "^order"}},
        False,
    ),
    (
        "bot: text_matches case-sensitive",
        [bot("Fraud team")],
        {"bot_uttered": {"text_matches": "fraud"}},
        False,
    ),
    (
        "bot: text_matches inline flag",
        [bot("Fraud team")],
        {"bot_uttered": {"text_matches": "(?i)fraud"}},
        True,
    ),
    (
        "bot: each field may match a different message",
        [bot("Done", "utter_a"), bot("order placed", "utter_b")],
        {"bot_uttered": {"utter_name": "utter_a", "text_matches": "order"}},
        True,
    ),
    (
        "bot: all fields agree",
        [bot("order placed", "utter_b")],
        {"bot_uttered": {"utter_name": "utter_b", "text_matches": "order"}},
        True,
    ),
    (
        "bot: a button listed without payload wants one without payload",
        [
            bot(
                "Why?",
                buttons=[
                    {"title": "Lost", "payload": "/lost"},
                    {"title": "Damaged", "payload": "/damaged"},
                ],
            )
        ],
        {"bot_uttered": {"buttons": [{"title": "Damaged"}]}},
        False,
    ),
    (
        "bot: button payload differs",
        [bot("Why?", buttons=[{"title": "Damaged", "payload": "/d"}])],
        {"bot_uttered": {"buttons": [{"title": "Damaged", "payload": "/damaged"}]}},
        False,
    ),
    (
        "bot: button payload equal",
        [bot("Why?", buttons=[{"title": "Damaged", "payload": "/d"}])],
        {"bot_uttered": {"buttons": [{"title": "Damaged", "payload": "/d"}]}},
        True,
    ),
    (
        "bot: buttons compared by position",
        [bot("?", buttons=[{"title": "A"}, {"title": "X"}, {"title": "B"}])],
        {"bot_uttered": {"buttons": [{"title": "A"}, {"title": "B"}]}},
        False,
    ),
    (
        "bot: buttons out of order",
        [bot("?", buttons=[{"title": "A"}, {"title": "B"}])],
        {"bot_uttered": {"buttons": [{"title": "B"}, {"title": "A"}]}},
        False,
    ),
    (
        "bot: fewer buttons than listed still match their positions (as in Rasa)",
        [bot("?", buttons=[{"title": "A"}])],
        {"bot_uttered": {"buttons": [{"title": "A"}, {"title": "B"}]}},
        True,
    ),
    ("bot: bad regex", [bot("x")], {"bot_uttered": {"text_matches": "("}}, False),
    ("bot: needs a field", [bot("x")], {"bot_uttered": {}}, False),
    (
        "did_not: nothing matches",
        [bot("Your card is on its way", "utter_order_placed")],
        {"bot_did_not_utter": {"text_matches": "fraud"}},
        True,
    ),
    (
        "did_not: a message matches",
        [bot("ok"), bot("We flagged possible fraud")],
        {"bot_did_not_utter": {"text_matches": "fraud"}},
        False,
    ),
    (
        "did_not: utter_name",
        [bot("Sorry", "utter_cannot_help")],
        {"bot_did_not_utter": {"utter_name": "utter_cannot_help"}},
        False,
    ),
    (
        "did_not: any field matching any message fails",
        [bot("Sorry", "utter_cannot_help"), bot("fine")],
        {"bot_did_not_utter": {"utter_name": "utter_cannot_help", "text_matches": "fraud"}},
        False,
    ),
    ("did_not: no bot messages", [], {"bot_did_not_utter": {"utter_name": "utter_x"}}, True),
    # sequencing
    (
        "seq: in order with gaps",
        [
            user(),
            skill("activated"),
            bot(),
            mset(REASON, "damaged"),
            user(),
            tool("x"),
            tool("place_replacement_order"),
            skill("completed"),
        ],
        {
            "sequencing": [
                {"skill_activated": CR},
                {"memory_was_set": REASON},
                {"tool_executed": PLACE},
                {"skill_completed": CR},
            ]
        },
        True,
    ),
    (
        "seq: out of order",
        [skill("activated"), tool("place_replacement_order"), mset(REASON, "damaged")],
        {"sequencing": [{"memory_was_set": REASON}, {"tool_executed": PLACE}]},
        False,
    ),
    (
        "seq: one event cannot satisfy two steps",
        [skill("activated")],
        {"sequencing": [{"skill_activated": CR}, {"skill_activated": CR}]},
        False,
    ),
    (
        "seq: repeated event satisfies repeated steps",
        [skill("activated"), skill("activated")],
        {"sequencing": [{"skill_activated": CR}, {"skill_activated": CR}]},
        True,
    ),
    (
        "seq: earliest match keeps later steps possible",
        [mset(REASON, "lost"), tool("place_replacement_order"), mset(REASON, "damaged")],
        {"sequencing": [{"memory_was_set": REASON}, {"tool_executed": PLACE}]},
        True,
    ),
    (
        "seq: memory_was_set one-item list rejected (Rasa takes a plain name)",
        [mset(REASON, "damaged"), tool("place_replacement_order")],
        {"sequencing": [{"memory_was_set": [REASON]}, {"tool_executed": PLACE}]},
        False,
    ),
    (
        "seq: memory_was_cleared plain name",
        [mset(REASON, "damaged"), mclear(REASON)],
        {"sequencing": [{"memory_was_set": REASON}, {"memory_was_cleared": REASON}]},
        True,
    ),
    (
        "seq: skill step never matches block event",
        [block("entered"), skill("completed")],
        {"sequencing": [{"skill_activated": CR}, {"skill_completed": CR}]},
        False,
    ),
    (
        "seq: block steps",
        [block("entered"), bot("Done", "utter_order_placed"), block("completed")],
        {"sequencing": [{"ordered_block_entered": PICK}, {"ordered_block_completed": PICK}]},
        True,
    ),
    (
        "seq: bot_uttered not allowed (Rasa rejects it)",
        [block("entered"), bot("Done", "utter_order_placed"), block("completed")],
        {
            "sequencing": [
                {"ordered_block_entered": PICK},
                {"bot_uttered": {"utter_name": "utter_order_placed"}},
                {"ordered_block_completed": PICK},
            ]
        },
        False,
    ),
    (
        "seq: memory_was_set never matches a slot",
        [slot(REASON, "x"), tool("place_replacement_order")],
        {"sequencing": [{"memory_was_set": REASON}, {"tool_executed": PLACE}]},
        False,
    ),
    (
        "seq: memory_was_not_set not allowed",
        [],
        {"sequencing": [{"memory_was_not_set": REASON}]},
        False,
    ),
    (
        "seq: tools_within_one_turn not allowed",
        [user(), tool("a"), tool("b")],
        {"sequencing": [within(call("a"), call("b"), extra=True)]},
        False,
    ),
    # invalid items
    ("invalid: unknown type", [skill("activated")], {"skill_started": CR}, False),
    (
        "invalid: two keys in one item",
        [skill("activated"), skill("completed")],
        {"skill_activated": CR, "skill_completed": CR},
        False,
    ),
    ("invalid: missing skill_id", [skill("activated")], {"skill_activated": {}}, False),
]


@pytest.mark.parametrize(
    ("events", "assertion", "expected"), [pytest.param(e, a, x, id=name) for name, e, a, x in CASES]
)
def test_rule(events: list[dict], assertion: dict, expected: bool) -> None:
    (result,) = evaluate_mantle([assertion], events)
    assert result.passed is expected, result.detail
    assert result.detail


# --- details explain themselves ----------------------------------------------------------


def _one(assertion: dict, events: list[dict]) -> AssertionResult:
    (result,) = evaluate_mantle([assertion], events)
    return result


def test_tool_detail_names_closest_run() -> None:
    events = [user(), user(), user(), tool("place_replacement_order", args={"shipping": "express"})]
    result = _one({"tool_executed": {**PLACE, "arguments": {"shipping": "standard"}}}, events)
    assert not result.passed
    assert result.detail.startswith("expected tool_executed place_replacement_order")
    assert (
        'closest: place_replacement_order (source local, arguments {"shipping": "express"})'
        in result.detail
    )
    assert "at turn 3" in result.detail
    assert 'arguments.shipping is "express", not "standard"' in result.detail


def test_memory_detail_shows_types() -> None:
    result = _one(
        {"memory_was_set": [{"name": "project.authenticated", "value": True}]},
        [mset("project.authenticated", "true")],
    )
    assert 'value is "true", not true' in result.detail


def test_memory_detail_mentions_slot_event() -> None:
    result = _one({"memory_was_set": [{"name": REASON}]}, [slot(REASON, "damaged")])
    assert "slot" in result.detail and "never count" in result.detail


def test_skill_detail_suggests_recorded_id() -> None:
    result = _one({"skill_activated": {"skill_id": "card_replce"}}, [skill("activated")])
    assert "card_replace" in result.detail and "did you mean" in result.detail


def test_skill_detail_names_related_block_event() -> None:
    result = _one({"skill_completed": CR}, [skill("activated"), block("completed")])
    assert "no skill_completed events recorded" in result.detail
    assert "ordered_block_completed card_replace/pick_card" in result.detail


def test_step_detail_names_recorded_step() -> None:
    result = _one(
        {"skill_interrupted": {**CR, "step_id": "select_card"}},
        [user(), skill("interrupted", step_id="autonomous")],
    )
    assert 'step_id is "autonomous", not "select_card"' in result.detail


def test_sequencing_detail_names_first_unmatched_step() -> None:
    events = [skill("activated"), tool("place_replacement_order"), mset(REASON, "damaged")]
    result = _one(
        {
            "sequencing": [
                {"skill_activated": CR},
                {"tool_executed": PLACE},
                {"memory_was_set": REASON},
                {"skill_completed": CR},
            ]
        },
        events,
    )
    assert "step 4 of 4 (skill_completed card_replace)" in result.detail
    result = _one({"sequencing": [{"memory_was_set": REASON}, {"tool_executed": PLACE}]}, events)
    assert "step 2 of 2 (tool_executed place_replacement_order" in result.detail
    assert "it matches only at or before that point, first at turn 0 (event 1)" in result.detail


def test_within_one_turn_details() -> None:
    extra = _one(
        within(call("a"), call("b"), extra=False), [user(), tool("a"), tool("c"), tool("b")]
    )
    assert "turn 1 ran them, plus c" in extra.detail
    order = _one(
        within(call("a"), call("b"), extra=True, ordered=True), [user(), tool("b"), tool("a")]
    )
    assert "ran only before the previous call's run; ordered: true" in order.detail
    split = _one(within(call("a"), call("b"), extra=True), [user(), tool("a"), user(), tool("b")])
    assert "matched the first 1 of 2" in split.detail and "ran at turn 2" in split.detail


def test_did_not_utter_detail_names_the_message() -> None:
    result = _one(
        {"bot_did_not_utter": {"text_matches": "fraud"}},
        [user(), bot("We flagged possible fraud", "utter_fraud_review")],
    )
    assert "utter_fraud_review" in result.detail and "turn 1" in result.detail


def test_invalid_items_say_why() -> None:
    results = evaluate_mantle(
        [
            {"skill_started": CR},
            "skill_completed",
            {"bot_uttered": {"text_matches": "("}},
            {"sequencing": [{"memory_was_not_set": REASON}]},
        ],
        [],
    )
    assert "unknown assertion type 'skill_started'" in results[0].detail
    assert results[1].type == "invalid"
    assert "not a valid regular expression" in results[2].detail
    assert "not allowed inside sequencing" in results[3].detail
    assert [r.index for r in results] == [0, 1, 2, 3]


def test_results_keep_index_and_json_shape() -> None:
    results = evaluate_mantle(
        [{"skill_activated": CR}, {"skill_completed": CR}], [skill("activated")]
    )
    assert [r.to_json() for r in results] == [
        {"index": 0, "type": "skill_activated", "passed": True, "detail": results[0].detail},
        {"index": 1, "type": "skill_completed", "passed": False, "detail": results[1].detail},
    ]


def test_no_assertions() -> None:
    assert evaluate_mantle([], []) == []
    assert evaluate_mantle(None, {"events": []}) == []


# --- comparison ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("expected", "actual", "equal"),
    [
        (True, True, True),
        (True, "true", False),
        (True, 1, True),
        (0, False, True),
        (5, "5", False),
        (5, 5.0, True),
        (5.5, 5.5, True),
        (float("nan"), float("nan"), False),
        ("a", "a", True),
        ("a", "A", False),
        (None, None, True),
        (None, "", False),
        ({"a": 1, "b": [1, 2]}, {"b": [1, 2], "a": 1}, True),
        ({"a": 1}, {"a": 1, "b": 2}, False),
        ([1, 2], [2, 1], False),
        ([1], (1,), False),
        ([{"a": True}], [{"a": 1}], True),
    ],
)
def test_values_equal(expected: Any, actual: Any, equal: bool) -> None:
    assert values_equal(expected, actual) is equal


# --- parsing the event log -----------------------------------------------------------------


def test_parse_tracker_and_bare_list_agree() -> None:
    events = [user(), skill("activated")]
    assert parse_events({"events": events}) == parse_events(events)


def test_parse_turns_and_fields() -> None:
    parsed = parse_events(
        [
            {"event": "action", "name": "action_session_start"},
            user("hi"),
            bot("Why?", "utter_ask_reason", [{"title": "Lost", "payload": "/lost"}]),
            tool("lookup", "mcp", mcp_server="crm", skill_id="card_replace", is_error=True),
            user("lost"),
            {"event": "stack", "update": "[]"},
            slot("project.preferred_language", "en"),
        ]
    )
    assert [e.turn for e in parsed] == [0, 1, 1, 1, 2, 2, 2]
    assert [e.index for e in parsed] == list(range(7))
    bot_event, tool_event = parsed[2], parsed[3]
    assert bot_event.utter_action == "utter_ask_reason"
    assert bot_event.buttons[0].title == "Lost" and bot_event.buttons[0].payload == "/lost"
    assert tool_event.skill_id == "card_replace" and tool_event.mcp_server == "crm"
    assert tool_event.is_error is True and tool_event.error_message == "boom"
    assert parsed[5].type == "stack"  # unknown types are kept
    assert parsed[6].type == "slot"


@pytest.mark.parametrize(
    ("obj", "message"),
    [
        ({"sender_id": "x"}, "no 'events' list"),
        ("events", "events must be a list"),
        ([user(), 3], "malformed event 1"),
        (
            [{"event": "tool_executed", "tool_name": "a", "source": "local", "arguments": "x=1"}],
            "'arguments' must be an object",
        ),
        ([{"event": "bot", "text": "x", "data": {"buttons": "Yes"}}], "'data.buttons'"),
        ([{"event": "user", "text": "x", "metadata": []}], "'metadata' must be an object"),
    ],
)
def test_malformed_events_name_the_index(obj: Any, message: str) -> None:
    with pytest.raises(UserError) as info:
        parse_events(obj)
    assert message in str(info.value)


def test_events_rasa_refuses_are_kept_in_place_and_never_match() -> None:
    """Rasa's tracker reader skips them; positions stay those of the log."""
    log = [
        user(),
        {"text": "no type"},
        {"event": "skill_activated"},
        {"event": "memory_set", "key": "a.b"},
        {"event": "tool_executed", "tool_name": "t", "source": "local"},
        {
            "event": "tool_executed",
            "tool_name": "t",
            "source": "local",
            "arguments": {},
            "mcp_server": "x",
        },
        {"event": "skill_cancelled", "skill_id": "card_replace"},
    ]
    parsed = parse_events(log)
    assert [e.index for e in parsed] == list(range(7))
    assert [type(e).__name__ for e in parsed[1:]] == ["RefusedEvent"] * 6
    assert "value' is required" in parsed[3].describe()
    assert not _one({"memory_was_set": [{"name": "a.b"}]}, log).passed
    assert _one({"memory_was_not_set": [{"name": "a.b"}]}, log).passed
    assert not _one({"tool_executed": {"tool_name": "t", "source": "local"}}, log).passed
    assert not _one({"skill_cancelled": CR}, log).passed


def test_commands_and_empty_messages_open_no_turn() -> None:
    log = [user("go"), user("/restart"), user(""), user("   "), user(" /x"), user("next")]
    assert [e.turn for e in parse_events(log)] == [1, 1, 1, 1, 1, 2]


def test_text_null_message_makes_text_checks_invalid() -> None:
    log = [user(), {"event": "bot", "text": None}, bot("hello")]
    result = _one({"bot_uttered": {"text_matches": "hello"}}, log)
    assert not result.passed and result.invalid and "TypeError" in result.detail
    assert _one({"bot_uttered": {"text_matches": "hello"}}, list(reversed(log))).passed


# --- the recorded card_replace conversation ------------------------------------------------


def _tracker() -> dict:
    return json.loads(TRACKER.read_text(encoding="utf-8"))


def test_seed_scenario_passes_on_recorded_tracker() -> None:
    doc = get_dialect("mantle").load(SCENARIO)
    assert doc.parsed and not doc.findings
    assertions = doc.data["scenario"]["goals"]["assertions"]
    results = evaluate_mantle(assertions, _tracker())
    assert len(results) == len(assertions) >= 10
    assert all(r.passed for r in results), [r.detail for r in results if not r.passed]


@pytest.mark.parametrize(
    ("assertion", "expected"),
    [
        ({"skill_completed": {"skill_id": "card_replace"}}, True),
        (
            {"memory_was_set": [{"name": "card_replace.replacement_reason", "value": "damaged"}]},
            True,
        ),
        ({"tool_executed": {"tool_name": "place_replacement_order", "source": "local"}}, True),
        # The customer first chose express, then corrected to standard.
        ({"memory_was_set": [{"name": "card_replace.shipping", "value": "express"}]}, True),
        ({"memory_was_not_set": [{"name": "card_replace.shipping", "value": "express"}]}, True),
        ({"memory_was_not_set": [{"name": "card_replace.shipping", "value": "standard"}]}, False),
        # Selected card is cleared after completion.
        ({"memory_was_set": [{"name": "card_replace.selected_card_id", "value": "c-1001"}]}, True),
        ({"memory_was_cleared": [{"name": "card_replace.selected_card_id"}]}, True),
        ({"memory_was_not_set": [{"name": "card_replace.selected_card_id"}]}, False),
        # preferred_language arrived as a CALM slot event, not as memory.
        ({"memory_was_set": [{"name": "project.preferred_language"}]}, False),
        ({"memory_was_set": [{"name": "project.authenticated", "value": True}]}, True),
        (
            {
                "tool_executed": {
                    "tool_name": "list_cards",
                    "source": "mcp",
                    "mcp_server": "core_banking",
                    "skill_id": "card_replace",
                }
            },
            True,
        ),
        ({"tool_executed": {"tool_name": "list_cards", "source": "local"}}, False),
        (
            {
                "tools_within_one_turn": {
                    "calls": [
                        {
                            "tool_executed": {
                                "tool_name": "card_replace_eligibility",
                                "source": "local",
                            }
                        },
                        {
                            "tool_executed": {
                                "tool_name": "list_cards",
                                "source": "mcp",
                                "mcp_server": "core_banking",
                            }
                        },
                    ],
                    "allow_extra_calls": False,
                    "ordered": True,
                }
            },
            True,
        ),  # set_fields is lifecycle
        (
            {
                "tools_within_one_turn": {
                    "calls": [
                        {
                            "tool_executed": {
                                "tool_name": "lookup_customer",
                                "source": "mcp",
                                "mcp_server": "core_banking",
                            }
                        },
                        {
                            "tool_executed": {
                                "tool_name": "place_replacement_order",
                                "source": "local",
                            }
                        },
                    ],
                    "allow_extra_calls": True,
                }
            },
            False,
        ),
        (
            {
                "bot_uttered": {
                    "utter_name": "utter_ask_replacement_reason",
                    "buttons": [{"title": "Damaged"}],
                }
            },
            False,  # buttons are compared by position, payload included
        ),
        (
            {
                "bot_uttered": {
                    "utter_name": "utter_ask_replacement_reason",
                    "buttons": [
                        {
                            "title": "Lost",
                            "payload": "set:session.card_replace.replacement_reason=lost",
                        }
                    ],
                }
            },
            True,
        ),
        ({"bot_uttered": {"text_matches": "order R-\\d+"}}, True),
        ({"ordered_block_entered": {"skill_id": "card_replace", "block_id": "pick_card"}}, True),
        (
            {
                "ordered_block_completed": {
                    "skill_id": "card_replace",
                    "block_id": "pick_card",
                    "step_id": "select_card",
                }
            },
            True,
        ),
        ({"skill_cancelled": {"skill_id": "card_replace"}}, False),
    ],
)
def test_recorded_tracker(assertion: dict, expected: bool) -> None:
    (result,) = evaluate_mantle([assertion], _tracker())
    assert result.passed is expected, result.detail
