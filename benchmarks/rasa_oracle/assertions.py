"""Check (c): Rasa's `evaluate_assertions` beside casegen's `evaluate_mantle`, verdict by verdict.

A generated set of probes (a tracker and assertions) covers every Mantle assertion kind and
the corners where a reading of the format could differ from Rasa's code: buttons compared by
position with their payloads, `bot_uttered` properties matched by different messages, Python
`==` on values, events Rasa's event model refuses, user messages that open no turn, the tools
`tools_within_one_turn` never counts, greedy matching, lazily read `sequencing` steps, a bot
message without text. Each assertion gets one verdict per side: `pass`, `fail`, or `error`
(Rasa raises while reading or running it; casegen reports it as invalid, or refuses the log).

Figure: identical verdicts N/M (goal: all). `--record` writes Rasa's verdicts, with the probes
and the Rasa version, to `tests/data/rasa_oracle/assertions.json`, which
`tests/test_rasa_recorded_verdicts.py` replays against casegen without Rasa.
"""

from __future__ import annotations

import json
import os
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from . import RECORDED, RasaEnv, call

FIXTURE = RECORDED / "assertions.json"

# --- the probes ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Probe:
    """One tracker and the assertions judged on it (given as data, or as scenario YAML)."""

    id: str
    events: list[Any]
    assertions: list[Any] = field(default_factory=list)
    assertions_yaml: str = ""

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"id": self.id, "events": self.events}
        if self.assertions_yaml:
            out["assertions_yaml"] = self.assertions_yaml
        else:
            out["assertions"] = self.assertions
        return out


def _user(text: Any) -> dict[str, Any]:
    # Rasa's tracker always writes parse_data; its reader fails on a user event without it.
    return {"event": "user", "text": text, "parse_data": {}}


def _bot(text: Any, utter: str | None = None, buttons: Any = None) -> dict[str, Any]:
    event: dict[str, Any] = {"event": "bot", "text": text}
    if utter is not None:
        event["metadata"] = {"utter_action": utter}
    if buttons is not None:
        event["data"] = {"buttons": buttons}
    return event


def _tool(name: str, source: str = "local", **extra: Any) -> dict[str, Any]:
    event: dict[str, Any] = {"event": "tool_executed", "tool_name": name, "source": source}
    event["arguments"] = extra.pop("arguments", {})
    event.update(extra)
    return event


def _button(title: Any, payload: Any = None) -> dict[str, Any]:
    return {"title": title} if payload is None else {"title": title, "payload": payload}


CARD_BUTTONS = [_button("Visa", "/visa"), _button("Master", "/master"), _button("Amex", "/amex")]

TRACKER: list[dict[str, Any]] = [
    {"event": "action", "name": "action_session_start"},
    {"event": "session_started"},
    _bot("Welcome to the bank.", "utter_welcome"),
    _user("I lost my card"),
    {"event": "skill_activated", "skill_id": "card_replace"},
    {"event": "ordered_block_entered", "skill_id": "card_replace", "block_id": "main"},
    _tool("activate", arguments={"skill_id": "card_replace"}),
    _tool(
        "lookup_card",
        arguments={"card": "visa", "limit": 1000, "active": True, "tags": ["a", "b"]},
        result={"ok": True},
        is_error=False,
        metadata={"skill_id": "card_replace"},
    ),
    _tool("check_fraud", arguments={"card": "visa"}, metadata={"skill_id": "card_replace"}),
    {"event": "memory_set", "key": "card_replace.card_type", "value": "visa"},
    _bot("Which card is it?", "utter_ask_card", CARD_BUTTONS),
    _user("/visa"),
    _user(""),
    _tool("set_fields", arguments={"fields": {}}),
    _user("the visa one"),
    {"event": "skill_interrupted", "skill_id": "card_replace", "step_id": "ask_card"},
    {"event": "skill_activated", "skill_id": "faq"},
    _tool("search_knowledge", arguments={"query": "fees"}),
    {"event": "skill_completed", "skill_id": "faq"},
    {"event": "skill_resumed", "skill_id": "card_replace", "step_id": "ask_card"},
    _tool("block_card", "mcp", mcp_server="bank", arguments={"card": "visa", "amount": 1.0}),
    _tool("notify", arguments={"channel": None}, is_error=True, error_message="boom"),
    {"event": "memory_set", "key": "card_replace.count", "value": 1},
    {"event": "memory_set", "key": "card_replace.flag", "value": True},
    {"event": "memory_set", "key": "card_replace.count", "value": 2},
    {"event": "memory_set", "key": "card_replace.meta", "value": {"a": 1, "b": [1, 2]}},
    {"event": "memory_cleared", "key": "card_replace.reason"},
    {
        "event": "ordered_block_completed",
        "skill_id": "card_replace",
        "block_id": "main",
        "step_id": "done",
    },
    {"event": "skill_completed", "skill_id": "card_replace"},
    _bot("Your card is blocked.", "utter_done"),
    _bot("Anything else?", None, [_button("Yes", "/yes"), _button("No")]),
]


def _skill_and_block_probes() -> Iterator[Probe]:
    for kind, step in (
        ("skill_activated", None),
        ("skill_completed", None),
        ("skill_interrupted", "ask_card"),
        ("skill_resumed", "ask_card"),
        ("skill_cancelled", None),
    ):
        cases: list[Any] = [
            {kind: {"skill_id": "card_replace"}},
            {kind: {"skill_id": "card_replac"}},
            {kind: {"skill_id": ""}},
            {kind: {}},
            {kind: "card_replace"},
            {kind: {"skill_id": "card_replace", "step_id": step or "ask_card"}},
            {kind: {"skill_id": "card_replace", "step_id": "other"}},
        ]
        yield Probe(f"skill/{kind}", TRACKER, cases)
    for kind in (
        "ordered_block_entered",
        "ordered_block_completed",
        "ordered_block_cancelled",
        "ordered_block_interrupted",
        "ordered_block_resumed",
    ):
        cases = [
            {kind: {"skill_id": "card_replace", "block_id": "main"}},
            {kind: {"skill_id": "card_replace", "block_id": "other"}},
            {kind: {"skill_id": "faq", "block_id": "main"}},
            {kind: {"skill_id": "card_replace"}},
            {kind: {"skill_id": "card_replace", "block_id": "main", "step_id": "done"}},
            {kind: {"skill_id": "card_replace", "block_id": "main", "step_id": "ask"}},
        ]
        yield Probe(f"block/{kind}", TRACKER, cases)
    # a skill check never matches a block event of the same skill, nor the reverse
    yield Probe(
        "skill/family",
        [{"event": "ordered_block_entered", "skill_id": "s", "block_id": "main"}],
        [{"skill_activated": {"skill_id": "s"}}, {"ordered_block_entered": {"skill_id": "s"}}],
    )


def _memory_probes() -> Iterator[Probe]:
    name = "card_replace."
    yield Probe(
        "memory/was_set",
        TRACKER,
        [
            {"memory_was_set": [{"name": name + "card_type"}]},
            {"memory_was_set": [{"name": name + "card_type", "value": "visa"}]},
            {"memory_was_set": [{"name": name + "card_type", "value": "Visa"}]},
            {"memory_was_set": [{"name": name + "count", "value": 1}]},
            {"memory_was_set": [{"name": name + "count", "value": 2}]},
            {"memory_was_set": [{"name": name + "count", "value": 1.0}]},
            {"memory_was_set": [{"name": name + "count", "value": True}]},
            {"memory_was_set": [{"name": name + "count", "value": "1"}]},
            {"memory_was_set": [{"name": name + "flag", "value": 1}]},
            {"memory_was_set": [{"name": name + "meta", "value": {"b": [1, 2], "a": 1}}]},
            {"memory_was_set": [{"name": name + "meta", "value": {"a": 1}}]},
            {"memory_was_set": [{"name": name + "card_type"}, {"name": name + "missing"}]},
            {"memory_was_set": [{"name": name + "reason"}]},
            {"memory_was_set": [{"name": name + "card_type", "value": None}]},
            {"memory_was_set": []},
            {"memory_was_set": name + "card_type"},
            {"memory_was_set": {"name": name + "card_type"}},
        ],
    )
    yield Probe(
        "memory/was_not_set",
        TRACKER,
        [
            {"memory_was_not_set": [{"name": name + "missing"}]},
            {"memory_was_not_set": [{"name": name + "card_type"}]},
            {"memory_was_not_set": [{"name": name + "count", "value": 1}]},
            {"memory_was_not_set": [{"name": name + "count", "value": 2}]},
            {"memory_was_not_set": [{"name": name + "count", "value": 2.0}]},
            {"memory_was_not_set": [{"name": name + "flag", "value": 1}]},
            {"memory_was_not_set": [{"name": name + "reason"}]},
            {"memory_was_not_set": [{"name": name + "count", "value": None}]},
            {"memory_was_not_set": []},
        ],
    )
    yield Probe(
        "memory/was_cleared",
        TRACKER,
        [
            {"memory_was_cleared": [{"name": name + "reason"}]},
            {"memory_was_cleared": [{"name": name + "card_type"}]},
            {"memory_was_cleared": [{"name": name + "reason", "value": None}]},
            {"memory_was_cleared": []},
        ],
    )
    # A memory_set without value is refused by Rasa's event model (skipped); value null is kept.
    yield Probe(
        "memory/refused_event",
        [
            _user("hi"),
            {"event": "memory_set", "key": "s.a"},
            {"event": "memory_set", "key": "s.b", "value": None},
            {"event": "memory_cleared"},
            {"event": "slot", "name": "s.c", "value": 1},
        ],
        [
            {"memory_was_set": [{"name": "s.a"}]},
            {"memory_was_not_set": [{"name": "s.a"}]},
            {"memory_was_set": [{"name": "s.b"}]},
            {"memory_was_not_set": [{"name": "s.b"}]},
            {"memory_was_set": [{"name": "s.c"}]},
        ],
    )


def _tool_probes() -> Iterator[Probe]:
    lookup = {"tool_name": "lookup_card", "source": "local"}
    yield Probe(
        "tool/executed",
        TRACKER,
        [
            {"tool_executed": lookup},
            {"tool_executed": {**lookup, "source": "mcp", "mcp_server": "bank"}},
            {"tool_executed": {"tool_name": "lookup_card"}},
            {"tool_executed": {**lookup, "source": "remote"}},
            {"tool_executed": {"tool_name": "", "source": "local"}},
            {"tool_executed": {**lookup, "arguments": {"card": "visa"}}},
            {"tool_executed": {**lookup, "arguments": {"card": "amex"}}},
            {"tool_executed": {**lookup, "arguments": {"limit": 1000.0}}},
            {"tool_executed": {**lookup, "arguments": {"active": 1}}},
            {"tool_executed": {**lookup, "arguments": {"limit": "1000"}}},
            {"tool_executed": {**lookup, "arguments": {"tags": ["b", "a"]}}},
            {"tool_executed": {**lookup, "arguments": {"missing": None}}},
            {"tool_executed": {**lookup, "arguments": {"missing": 0}}},
            {"tool_executed": {**lookup, "arguments": {}}},
            {"tool_executed": {**lookup, "arguments": None}},
            {"tool_executed": {**lookup, "arguments": ["card"]}},
            {"tool_executed": {**lookup, "is_error": False}},
            {"tool_executed": {**lookup, "is_error": True}},
            {"tool_executed": {**lookup, "is_error": 0}},
            {"tool_executed": {**lookup, "skill_id": "card_replace"}},
            {"tool_executed": {**lookup, "skill_id": "faq"}},
            {"tool_executed": {"tool_name": "notify", "source": "local", "is_error": True}},
            {"tool_executed": {"tool_name": "notify", "source": "local", "arguments": {}}},
            {"tool_executed": {"tool_name": "activate", "source": "local"}},
        ],
    )
    block = {"tool_name": "block_card", "source": "mcp"}
    yield Probe(
        "tool/mcp",
        TRACKER,
        [
            {"tool_executed": {**block, "mcp_server": "bank"}},
            {"tool_executed": {**block, "mcp_server": "other"}},
            {"tool_executed": block},
            {"tool_executed": {**block, "mcp_server": None}},
            {"tool_executed": {**block, "source": "local"}},
            {"tool_executed": {**block, "source": "local", "mcp_server": "bank"}},
            {"tool_executed": {**block, "source": "local", "mcp_server": None}},
            {"tool_executed": {**block, "mcp_server": "bank", "arguments": {"amount": 1}}},
        ],
    )
    # Events Rasa's event model refuses (skipped) or keeps as written.
    yield Probe(
        "tool/refused_events",
        [
            _user("hi"),
            _tool("a", mcp_server="srv"),
            {"event": "tool_executed", "tool_name": "b", "source": "local"},
            _tool("c", "remote"),
            _tool("d", "mcp"),
            _tool("e", mcp_server=None),
            _tool("f", is_error=None),
            _tool("g", arguments=None),
            {"event": "tool_executed", "source": "local", "arguments": {}},
        ],
        [
            {"tool_executed": {"tool_name": "a", "source": "local"}},
            {"tool_executed": {"tool_name": "a", "source": "mcp", "mcp_server": "srv"}},
            {"tool_executed": {"tool_name": "b", "source": "local"}},
            {"tool_executed": {"tool_name": "c", "source": "local"}},
            {"tool_executed": {"tool_name": "d", "source": "mcp", "mcp_server": None}},
            {"tool_executed": {"tool_name": "e", "source": "local"}},
            {"tool_executed": {"tool_name": "f", "source": "local"}},
            {"tool_executed": {"tool_name": "f", "source": "local", "is_error": False}},
            {"tool_executed": {"tool_name": "g", "source": "local"}},
            {"tool_executed": {"tool_name": "g", "source": "local", "arguments": {"x": None}}},
        ],
    )


def _calls(*names: str, **body: Any) -> dict[str, Any]:
    calls = [{"tool_executed": {"tool_name": n, "source": "local"}} for n in names]
    return {"tools_within_one_turn": {"calls": calls, **body}}


def _turn_probes() -> Iterator[Probe]:
    yield Probe(
        "turn/tools_within_one_turn",
        TRACKER,
        [
            _calls("lookup_card", "check_fraud", allow_extra_calls=True),
            _calls("lookup_card", "check_fraud", allow_extra_calls=False),
            _calls("check_fraud", "lookup_card", allow_extra_calls=True, ordered=True),
            _calls("lookup_card", "check_fraud", allow_extra_calls=True, ordered=True),
            _calls("lookup_card", "notify", allow_extra_calls=True),
            _calls("lookup_card", "activate", allow_extra_calls=True),
            _calls("search_knowledge", "notify", allow_extra_calls=True),
            _calls("lookup_card", allow_extra_calls=True),
            _calls("lookup_card", "check_fraud"),
            _calls("lookup_card", "check_fraud", allow_extra_calls="yes"),
            _calls("lookup_card", "check_fraud", allow_extra_calls=True, ordered=None),
            _calls("lookup_card", "check_fraud", allow_extra_calls=True, same_turn=True),
            {
                "tools_within_one_turn": {
                    "calls": [
                        {"tool_name": "lookup_card", "source": "local"},
                        {"tool_name": "check_fraud", "source": "local"},
                    ],
                    "allow_extra_calls": True,
                }
            },
            {
                "tools_within_one_turn": {
                    "calls": [
                        {"tool_executed": {"tool_name": "block_card", "source": "mcp"}},
                        {"tool_executed": {"tool_name": "notify", "source": "local"}},
                    ],
                    "allow_extra_calls": True,
                }
            },
        ],
    )
    # Which user messages open a turn, and which framework tools are never counted.
    for hidden in (
        "activate",
        "complete",
        "cancel",
        "correct",
        "resolve_tool_confirmation",
        "set_fields",
        "listen",
        "hangup",
        "search_knowledge",
        "cannot_help",
    ):
        yield Probe(
            f"turn/hidden/{hidden}",
            [_user("go"), _tool("a"), _tool(hidden), _tool("b")],
            [
                _calls("a", "b", allow_extra_calls=False),
                _calls("a", hidden, allow_extra_calls=True),
            ],
        )
    for label, text in (
        ("slash", "/restart"),
        ("empty", ""),
        ("blank", "   "),
        ("null", None),
        ("text", "and then"),
        ("slash_after_space", " /x"),
    ):
        yield Probe(
            f"turn/opening/{label}",
            [_user("go"), _tool("a"), _user(text), _tool("b")],
            [_calls("a", "b", allow_extra_calls=True)],
        )
    yield Probe(
        "turn/before_first_user",
        [_tool("a"), _tool("b"), _user("hi"), _tool("c")],
        [_calls("a", "b", allow_extra_calls=True), _calls("b", "c", allow_extra_calls=True)],
    )
    # Greedy matching without backtracking: the first call takes the first event it fits.
    any_x = {"tool_name": "x", "source": "local"}
    x1 = {**any_x, "arguments": {"n": 1}}
    yield Probe(
        "turn/greedy",
        [_user("go"), _tool("x", arguments={"n": 1}), _tool("x", arguments={"n": 2})],
        [
            {
                "tools_within_one_turn": {
                    "calls": [{"tool_executed": any_x}, {"tool_executed": x1}],
                    "allow_extra_calls": True,
                }
            },
            {
                "tools_within_one_turn": {
                    "calls": [{"tool_executed": x1}, {"tool_executed": any_x}],
                    "allow_extra_calls": True,
                }
            },
            {
                "tools_within_one_turn": {
                    "calls": [{"tool_executed": any_x}, {"tool_executed": x1}],
                    "allow_extra_calls": True,
                    "ordered": True,
                }
            },
            {
                "tools_within_one_turn": {
                    "calls": [{"tool_executed": any_x}, {"tool_executed": any_x}],
                    "allow_extra_calls": False,
                }
            },
        ],
    )


def _bot_probes() -> Iterator[Probe]:
    yield Probe(
        "bot/uttered",
        TRACKER,
        [
            {"bot_uttered": {"utter_name": "utter_ask_card"}},
            {"bot_uttered": {"utter_name": "utter_nope"}},
            {"bot_uttered": {"text_matches": "card is blocked"}},
            {"bot_uttered": {"text_matches": "^card"}},
            {"bot_uttered": {"text_matches": "(?i)which CARD"}},
            {"bot_uttered": {"utter_name": "utter_done", "text_matches": "Which card"}},
            {"bot_uttered": {"utter_name": "utter_welcome", "buttons": CARD_BUTTONS}},
            {"bot_uttered": {"buttons": CARD_BUTTONS}},
            {"bot_uttered": {"buttons": CARD_BUTTONS[:2]}},
            {"bot_uttered": {"buttons": [CARD_BUTTONS[1]]}},
            {"bot_uttered": {"buttons": [CARD_BUTTONS[0], CARD_BUTTONS[2]]}},
            {"bot_uttered": {"buttons": [_button("Visa")]}},
            {"bot_uttered": {"buttons": [_button("Yes", "/yes"), _button("No")]}},
            {"bot_uttered": {"buttons": [_button("Yes", "/yes"), _button("No", "/no")]}},
            {"bot_uttered": {"buttons": [*CARD_BUTTONS, _button("Other", "/other")]}},
            {"bot_uttered": {"buttons": [{"payload": "/visa"}]}},
            {"bot_uttered": {"buttons": []}},
            {"bot_uttered": {}},
            {"bot_uttered": {"utter_name": ""}},
            {"bot_uttered": {"text_matches": ""}},
            {"bot_uttered": {"utter_name": "utter_done", "text_matches": ""}},
            {"bot_uttered": {"text_matches": "("}},
            {"bot_uttered": {"text_matches": 5}},
            {"bot_uttered": "utter_done"},
        ],
    )
    yield Probe(
        "bot/did_not_utter",
        TRACKER,
        [
            {"bot_did_not_utter": {"utter_name": "utter_nope"}},
            {"bot_did_not_utter": {"utter_name": "utter_done"}},
            {"bot_did_not_utter": {"text_matches": "goodbye"}},
            {"bot_did_not_utter": {"text_matches": "blocked"}},
            {"bot_did_not_utter": {"utter_name": "utter_done", "text_matches": "goodbye"}},
            {"bot_did_not_utter": {"utter_name": "utter_nope", "text_matches": "blocked"}},
            {"bot_did_not_utter": {"utter_name": "utter_nope", "text_matches": "Which"}},
            {"bot_did_not_utter": {"buttons": [_button("Amex", "/amex")]}},
            {"bot_did_not_utter": {"buttons": [_button("Amex")]}},
            {"bot_did_not_utter": {"buttons": [_button("No")]}},
            {"bot_did_not_utter": {"buttons": [_button("Other", "/o"), _button("Visa", "/visa")]}},
            {"bot_did_not_utter": {"utter_name": "utter_x", "buttons": [_button("Visa", "/v")]}},
            {"bot_did_not_utter": {}},
            {"bot_did_not_utter": {"text_matches": "["}},
        ],
    )
    # A bot message with `text: null`: Rasa's regex search raises on it when it reaches it.
    null_first = [_user("hi"), _bot(None, "utter_buttons"), _bot("hello there", "utter_hello")]
    null_last = [_user("hi"), _bot("hello there", "utter_hello"), _bot(None, "utter_buttons")]
    text_checks = [
        {"bot_uttered": {"text_matches": "hello"}},
        {"bot_uttered": {"utter_name": "utter_buttons"}},
        {"bot_did_not_utter": {"text_matches": "bye"}},
        {"bot_did_not_utter": {"text_matches": "hello"}},
        {"bot_did_not_utter": {"utter_name": "utter_hello", "text_matches": "x"}},
        {"bot_uttered": {"utter_name": "utter_hello", "text_matches": "hello"}},
    ]
    yield Probe("bot/text_null_first", null_first, text_checks)
    yield Probe("bot/text_null_last", null_last, text_checks)
    yield Probe(
        "bot/odd_events",
        [
            _user("hi"),
            {"event": "bot", "text": "no buttons", "data": {"buttons": None}},
            {"event": "bot", "text": "hi", "data": {}, "metadata": {}},
            {"event": "bot", "text": "b", "data": {"buttons": [{"title": "T"}]}},
        ],
        [
            {"bot_uttered": {"buttons": [_button("T")]}},
            {"bot_did_not_utter": {"buttons": [_button("T")]}},
            {"bot_uttered": {"text_matches": "no"}},
            {"bot_did_not_utter": {"utter_name": "x"}},
        ],
    )


def _sequencing_probes() -> Iterator[Probe]:
    activated = {"skill_activated": {"skill_id": "card_replace"}}
    completed = {"skill_completed": {"skill_id": "card_replace"}}
    lookup = {"tool_executed": {"tool_name": "lookup_card", "source": "local"}}
    yield Probe(
        "sequencing/order",
        TRACKER,
        [
            {"sequencing": [activated, lookup, completed]},
            {"sequencing": [completed, activated]},
            {"sequencing": [activated, activated]},
            {"sequencing": [activated, {"memory_was_set": "card_replace.count"}, completed]},
            {"sequencing": [{"memory_was_cleared": "card_replace.reason"}, completed]},
            {"sequencing": [{"memory_was_set": "card_replace.count"}, lookup]},
            {"sequencing": [{"memory_was_set": {"name": "card_replace.count"}}]},
            {"sequencing": [{"memory_was_set": [{"name": "card_replace.count"}]}]},
            {"sequencing": []},
            {"sequencing": [activated, {"memory_was_not_set": [{"name": "x"}]}]},
            {"sequencing": [activated, {"bot_uttered": {"utter_name": "utter_done"}}]},
            {"sequencing": [{"skill_completed": {"skill_id": "nope"}}, {"bot_uttered": {}}]},
            {"sequencing": [activated, {"skill_completed": {"skill_id": ""}}]},
            {"sequencing": [activated, {"skill_completed": "card_replace"}]},
            {"sequencing": [{"skill_activated": {"skill_id": "x"}}, {"nope": 1}]},
            {"sequencing": [activated, {"tools_within_one_turn": {}}]},
            {"sequencing": [activated, completed], "extra": 1},
            {"sequencing": [{**activated, **completed}]},
            {"sequencing": "skill_activated"},
            {"sequencing": [activated, {"skill_completed": {"skill_id": "card_replace"}}, lookup]},
        ],
    )


def _log_probes() -> Iterator[Probe]:
    checks: list[Any] = [
        {"skill_activated": {"skill_id": "s"}},
        {"skill_cancelled": {"skill_id": "s"}},
        {"ordered_block_completed": {"skill_id": "s", "block_id": "b"}},
    ]
    good = [_user("hi"), {"event": "skill_activated", "skill_id": "s"}]
    for label, extra in (
        ("unknown_type", [{"event": "something_new", "x": 1}]),
        ("event_null", [{"event": None}]),
        ("no_skill_id", [{"event": "skill_activated"}]),
        ("cancel_no_step", [{"event": "skill_cancelled", "skill_id": "s"}]),
        ("cancel_step_null", [{"event": "skill_cancelled", "skill_id": "s", "step_id": None}]),
        ("block_no_step", [{"event": "ordered_block_completed", "skill_id": "s", "block_id": "b"}]),
        ("skill_id_number", [{"event": "skill_cancelled", "skill_id": 5, "step_id": "x"}]),
        ("not_an_object", ["skill_activated"]),
        ("no_event_key", [{"skill_id": "s"}]),
    ):
        yield Probe(f"log/{label}", good + extra, checks)


def _yaml_probes() -> Iterator[Probe]:
    events = [
        _user("hi"),
        _tool("pay", arguments={"amount": 1000, "code": 5, "rate": 10.5, "flag": True}),
    ]
    for label, scalar_key, text in (
        ("underscore_int", "amount", "1_000"),
        ("plain_int", "amount", "1000"),
        ("binary_int", "code", "0b101"),
        ("octal_int", "code", "0o5"),
        ("underscore_float", "rate", "1_0.5"),
        ("yes_is_text", "flag", "yes"),
        ("true_bool", "flag", "true"),
    ):
        yaml_text = (
            "- tool_executed:\n"
            "    tool_name: pay\n"
            "    source: local\n"
            f"    arguments:\n      {scalar_key}: {text}\n"
        )
        yield Probe(f"yaml/{label}", events, assertions_yaml=yaml_text)


def probes() -> list[Probe]:
    """Every probe, in a stable order (their ids are the fixture's keys)."""
    return [
        *_skill_and_block_probes(),
        *_memory_probes(),
        *_tool_probes(),
        *_turn_probes(),
        *_bot_probes(),
        *_sequencing_probes(),
        *_log_probes(),
        *_yaml_probes(),
    ]


# --- casegen's side -----------------------------------------------------------------------


def casegen_assertions(probe: dict[str, Any]) -> list[Any]:
    """The probe's assertions as casegen's scenario reader reads them."""
    if "assertions_yaml" not in probe:
        return list(probe["assertions"])
    from evalcore.dialects import get_dialect

    text = "scenario:\n  name: probe\n  goals:\n    assertions:\n" + "".join(
        f"      {line}\n" for line in probe["assertions_yaml"].splitlines()
    )
    with tempfile.TemporaryDirectory(prefix="casegen-probe-") as folder:
        path = Path(folder) / "probe.yml"
        path.write_text(text, encoding="utf-8")
        doc = get_dialect("mantle").load(path)
    return list(doc.data["scenario"]["goals"]["assertions"])


def casegen_verdicts(probe: dict[str, Any]) -> list[dict[str, str]]:
    """casegen's verdict per assertion: pass, fail, or error (invalid, or a refused log)."""
    from evalcore.assertions import evaluate_mantle
    from evalcore.errors import UserError

    assertions = casegen_assertions(probe)
    try:
        results = evaluate_mantle(assertions, probe["events"])
    except UserError as exc:
        return [{"verdict": "error", "detail": f"log refused: {exc}"} for _ in assertions]
    out = []
    for result in results:
        verdict = "error" if result.invalid else "pass" if result.passed else "fail"
        out.append({"verdict": verdict, "detail": result.detail})
    return out


# --- Rasa's side, comparison, recording ---------------------------------------------------


def rasa_verdicts(env: RasaEnv, items: list[dict[str, Any]]) -> tuple[str, dict[str, Any]]:
    answer = call(env, "verdicts.py", {"probes": items})
    return answer["version"], answer["verdicts"]


@dataclass
class Disagreement:
    probe: str
    index: int
    assertion: Any
    rasa: dict[str, str]
    casegen: dict[str, str]


def compare(
    items: list[dict[str, Any]], rasa: dict[str, list[dict[str, str]]]
) -> tuple[int, int, list[Disagreement]]:
    """(identical verdicts, all verdicts, every disagreement)."""
    same = total = 0
    differing = []
    for probe in items:
        ours = casegen_verdicts(probe)
        theirs = rasa[probe["id"]]
        shown = probe.get("assertions") or casegen_assertions(probe)
        for index, (r, c) in enumerate(zip(theirs, ours, strict=True)):
            total += 1
            if r["verdict"] == c["verdict"]:
                same += 1
            else:
                differing.append(Disagreement(probe["id"], index, shown[index], r, c))
    return same, total, differing


def write_fixture(version: str, items: list[dict[str, Any]], rasa: dict[str, Any]) -> Path:
    """Write the probes with Rasa's verdicts (atomically, one probe a line) for the replay
    test."""
    data = {
        "rasa_version": version,
        "produced_by": "python -m benchmarks rasa-oracle assertions --record",
        "probes": [{**probe, "rasa": rasa[probe["id"]]} for probe in items],
    }
    FIXTURE.parent.mkdir(parents=True, exist_ok=True)
    head = {key: value for key, value in data.items() if key != "probes"}
    lines = [json.dumps(probe, ensure_ascii=False) for probe in data["probes"]]
    text = json.dumps(head, ensure_ascii=False)[:-1] + ', "probes": [\n' + ",\n".join(lines)
    text += "\n]}\n"
    with tempfile.NamedTemporaryFile(
        "w", encoding="utf-8", dir=FIXTURE.parent, delete=False, suffix=".tmp"
    ) as handle:
        handle.write(text)
    os.chmod(handle.name, 0o644)
    os.replace(handle.name, FIXTURE)
    return FIXTURE


def main(env: RasaEnv, only: list[str] | None = None, record: bool = False) -> int:
    """Print the agreement figure and every disagreement; the number of goals missed."""
    items = [p.to_json() for p in probes()]
    if only:
        items = [p for p in items if any(text in p["id"] for text in only)]
    version, rasa = rasa_verdicts(env, items)
    same, total, differing = compare(items, rasa)
    print(f"identical assertion verdicts (rasa-pro {version}): {same}/{total} (goal {total})")
    for d in differing:
        print(
            f"  {d.probe} #{d.index}: {json.dumps(d.assertion, default=str)}\n"
            f"    Rasa {d.rasa['verdict']}: {d.rasa['detail'][:160]}\n"
            f"    casegen {d.casegen['verdict']}: {d.casegen['detail'][:160]}"
        )
    if record and not only:
        print(f"recorded Rasa's verdicts in {write_fixture(version, items, rasa)}")
    return 0 if same == total else 1
