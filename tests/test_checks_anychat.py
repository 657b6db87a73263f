"""Anychat `expect.checks` × a recorded run → verdicts and details (docs/checks.md)."""

from __future__ import annotations

from typing import Any

import pytest

from evalcore.agents import AgentMessage, AgentReply, FinalRecord, UserTurn
from evalcore.runner import RunCase, RunTrace, TurnTrace, evaluate_checks
from evalcore.runner.checks._anychat import anychat_checks, check_names

CASE = RunCase(slug="book", name="Book", dialect="anychat", path="cases/book.json")
SEEDED = {"id": "a-0", "start": "2026-03-12T14:00:00-05:00", "status": "scheduled", "seeded": True}
BOOKED = {"id": "a-1", "start": "2026-03-10T10:30:00-05:00", "status": "scheduled"}


def _trace(
    turns: list[tuple[UserTurn, AgentReply | None]], final_state: dict[str, Any] | None = None
) -> RunTrace:
    traced, number = [], 0
    for turn, reply in turns:
        number = 0 if turn.type == "start" else number + 1
        traced.append(
            TurnTrace(
                number=number,
                user=turn,
                reply=reply,
                source="start" if number == 0 else "script",
                sent_at_s=float(number),
                latency_ms=5.0,
            )
        )
    return RunTrace(
        case=CASE,
        run_index=1,
        turns=tuple(traced),
        events=(),
        transcript=(),
        final=FinalRecord(state=final_state or {}),
    )


def _booking_run() -> RunTrace:
    person = {
        "phone": "+15550177",
        "firstName": "Dana",
        "customFields": {"insuranceProvider": "delta dental", "isNewPatient": True, "visits": 3.0},
    }
    return _trace(
        [
            (
                UserTurn(type="start", setup={}),
                AgentReply(
                    state={
                        "activePlaybook": "general",
                        "appointments": [SEEDED],
                        "outcomes": [],
                        "modelCalls": 0,
                    }
                ),
            ),
            (
                UserTurn(type="text", text="Hi, can I book a cleaning?"),
                AgentReply(
                    messages=[
                        AgentMessage(
                            text="Here are the next openings. Pick a time:",
                            parts=[
                                {"type": "text", "text": "Here are the next openings."},
                                {
                                    "type": "ask.time",
                                    "intentId": "pick",
                                    "prompt": "Pick a time",
                                    "slots": [
                                        {
                                            "id": "s-1",
                                            "start": {"iso": "2026-03-10T10:30"},
                                            "label": "Tue 10:30, Dr. Okafor",
                                        }
                                    ],
                                },
                            ],
                            chips=[{"label": "None of these", "value": "none"}],
                        )
                    ],
                    events=[
                        {"event": "playbook_switched", "from": "general", "to": "book"},
                        {"event": "tool_called", "name": "lookup_patient", "args": {}},
                        {"event": "tool_called", "name": "check_availability", "args": {}},
                        {"event": "model_call"},
                        {"event": "model_call"},
                        {"event": "model_call"},
                    ],
                    state={"activePlaybook": "book", "appointments": [SEEDED], "outcomes": []},
                ),
            ),
            (
                UserTurn(type="slot", slot=0, fallback="the first one"),
                AgentReply(
                    messages=[
                        AgentMessage(text="Booked: Tuesday 10:30 with Dr. Okafor."),
                        AgentMessage(
                            text="Anything else?", chips=[{"label": "No thanks", "value": "no"}]
                        ),
                    ],
                    events=[
                        {
                            "event": "tool_called",
                            "name": "book_appointment",
                            "args": {"slot_id": "s-1"},
                        },
                        {"event": "appointment_created", "appointment": BOOKED},
                        {"event": "outcome", "name": "booked"},
                    ],
                    state={
                        "activePlaybook": "book",
                        "appointments": [SEEDED, BOOKED],
                        "outcomes": ["booked"],
                        "person": person,
                        "modelCalls": 1,
                    },
                ),
            ),
            (
                UserTurn(type="system", event="optOut"),
                AgentReply(
                    state={
                        "activePlaybook": "book",
                        "appointments": [SEEDED, BOOKED],
                        "outcomes": ["booked"],
                        "person": person,
                    }
                ),
            ),
        ]
    )


TABLE = [
    # (check, value, passes, detail fragment)
    ("finalReplyNonEmpty", True, False, "the reply to T3 [system optOut] is empty"),
    ("finalReplyNonEmpty", False, True, "expected an empty final reply"),
    ("pickerShown", True, True, "ask.time at T1"),
    ("pickerShown", False, False, "expected no picker"),
    ("appointmentCreated", True, True, "a-1 (event at T2)"),
    ("appointmentCreated", False, False, "created: a-1"),
    ("activeAppointments", 2, True, "found 2 (a-0 2026-03-12T14:00:00-05:00, a-1"),
    ("activeAppointments", 1, False, "expected 1 active appointment(s), found 2"),
    ("outcomes", ["booked"], True, "recorded: booked"),
    ("outcomes", ["booked", "rescheduled"], False, "(missing rescheduled)"),
    ("outcomes", [], False, "expected no outcome; recorded: booked"),
    ("activePlaybookAtEnd", "book", True, "found 'book' (general → book)"),
    ("activePlaybookAtEnd", "Book", True, "found 'book'"),
    ("activePlaybookAtEnd", "general", False, "expected 'general', found 'book'"),
    (
        "personFields",
        {"firstName": "dana", "insuranceProvider": "Delta Dental"},
        True,
        "2 field(s) match",
    ),
    (
        "personFields",
        {"isNewPatient": "TRUE", "visits": 3, "phone": "+15550177"},
        True,
        "3 field(s) match",
    ),
    (
        "personFields",
        {"lastName": "Reyes", "firstName": "Dina"},
        False,
        "lastName: expected 'Reyes', not set; firstName: expected 'Dina', found 'Dana'",
    ),
    ("chipsOnAnyTurn", ["none of these", "no"], True, "None of these at T1"),
    ("chipsOnAnyTurn", ["Reschedule"], False, "(missing Reschedule)"),
    ("chipsOnAnyTurn", [], True, "expected some chip"),
    ("chipsOnLastMessage", True, True, "(T2, 'Anything else?') has chips (No thanks)"),
    ("chipsOnLastMessage", False, False, "has chips"),
    ("textIncludes", ["tuesday", "Dr. Okafor", "Pick a time"], True, "found"),
    ("textIncludes", ["Friday"], False, "not found in any of the 3 agent message(s): 'Friday'"),
    ("textExcludes", ["cancel"], True, "none of 'cancel' appears"),
    ("textExcludes", ["okafor"], False, "'okafor' at T1"),
    ("textMatches", [r"Booked: \w+day \d{1,2}:\d\d"], True, "every pattern matched"),
    ("textMatches", [r"^Anything else\?$"], True, "every pattern matched"),
    ("textMatches", ["booked:"], False, "no agent message matches 'booked:'"),
    ("textMatches", ["(unclosed"], False, "bad regular expression '(unclosed'"),
    (
        "toolsCalled",
        {"lookup_patient": 1, "check_availability": 1, "book_appointment": 1},
        True,
        "call counts match",
    ),
    (
        "toolsCalled",
        {"book_appointment": 2},
        False,
        "book_appointment: expected 2 call(s), found 1 (at T2)",
    ),
    ("toolsCalled", {"cancel_appointment": 0}, True, "cancel_appointment×0"),
    ("toolsNotCalled", ["cancel_appointment", "reschedule_appointment"], True, "none of"),
    ("toolsNotCalled", ["book_appointment"], False, "called: book_appointment at T2"),
    ("noWarnings", True, True, "no warnings reported"),
    ("maxModelCallsPerTurn", 3, True, "the most was 3 (T1)"),
    ("maxModelCallsPerTurn", 2, False, "exceeded at T1: 3"),
    ("maxTurnsToOutcome", 2, True, "an outcome recorded after 2 user turn(s) (limit 2)"),
    ("maxTurnsToOutcome", 1, False, "recorded after 2 user turn(s) (limit 1)"),
    ("replyCount", {"max": 3}, True, "got 3 (T1: 1, T2: 2)"),
    ("replyCount", {"min": 1, "max": 2}, False, "expected between 1 and 2 agent messages"),
    ("replyCount", {"min": 4}, False, "expected at least 4"),
    ("noReplyTo", ["optOut"], True, "silent on T3 optOut"),
    ("noReplyTo", ["unsubscribed"], False, "no unsubscribed turn was played"),
    ("partsOnLastTurn", [], True, "expected exactly none on T3, found none"),
    ("noSuchCheck", True, False, "unknown check 'noSuchCheck'"),
    ("pickerShwn", True, False, "did you mean 'pickerShown'"),
    ("activeAppointments", True, False, "expects an integer, got True"),
    ("outcomes", "booked", False, "expects a list, got 'booked'"),
]


@pytest.mark.parametrize(
    ("name", "value", "passes", "detail"),
    TABLE,
    ids=[f"{row[0]}-{i}" for i, row in enumerate(TABLE)],
)
def test_check_on_the_booking_run(name: str, value: Any, passes: bool, detail: str) -> None:
    [result] = anychat_checks({name: value}, _booking_run())
    assert (result.index, result.type) == (0, name)
    assert result.passed is passes, result.detail
    assert detail in result.detail


def test_every_schema_check_is_implemented() -> None:
    import json
    from pathlib import Path

    schema = json.loads(
        (Path(__file__).parents[1] / "evalcore" / "dialects" / "anychat" / "schema.json").read_text(
            "utf-8"
        )
    )
    names = schema["properties"]["expect"]["properties"]["checks"]["properties"]
    assert sorted(names) == sorted(check_names())


def test_results_keep_the_written_order_and_go_through_the_registry() -> None:
    checks = {"pickerShown": True, "outcomes": ["booked"], "noWarnings": True}
    results = evaluate_checks(checks, _booking_run())
    assert [(r.index, r.type, r.passed) for r in results] == [
        (0, "pickerShown", True),
        (1, "outcomes", True),
        (2, "noWarnings", True),
    ]


def _last_turn_run(reply: AgentReply) -> RunTrace:
    return _trace(
        [(UserTurn(type="start"), AgentReply()), (UserTurn(type="text", text="when?"), reply)]
    )


@pytest.mark.parametrize(
    ("reply", "expected", "passes", "detail"),
    [
        (
            AgentReply(
                messages=[
                    AgentMessage(
                        text="Pick:",
                        parts=[
                            {"type": "text", "text": "Pick:"},
                            {"type": "ask.time", "slots": []},
                        ],
                    )
                ]
            ),
            ["text", "ask.time"],
            True,
            "found ask.time, text",
        ),
        (
            AgentReply(messages=[AgentMessage(text="Pick:", parts=[{"type": "ask.time"}])]),
            ["text", "ask.time"],
            False,
            "(missing text)",
        ),
        (
            AgentReply(messages=[AgentMessage(text="Yes?", chips=[{"label": "Yes"}])]),
            ["text"],
            False,
            "(unexpected chips)",
        ),
        (AgentReply(messages=[AgentMessage(text="plain")]), ["text"], True, "found text"),
    ],
)
def test_parts_on_last_turn_is_an_exact_set(
    reply: AgentReply, expected: list[str], passes: bool, detail: str
) -> None:
    [result] = anychat_checks({"partsOnLastTurn": expected}, _last_turn_run(reply))
    assert result.passed is passes and detail in result.detail, result.detail


def test_warnings_from_events_and_state() -> None:
    run = _last_turn_run(
        AgentReply(
            messages=[AgentMessage(text="hi")],
            events=[
                {"event": "warning", "code": "aml.unknown_marker", "message": "dropped [[chip: x]]"}
            ],
            state={"warnings": ["slow tool"]},
        )
    )
    [on, off] = anychat_checks({"noWarnings": True}, run) + anychat_checks(
        {"noWarnings": False}, run
    )
    assert not on.passed
    assert on.detail == "2 warning(s): T1: dropped [[chip: x]]; T1: slow tool"
    assert off.passed and off.detail == "not checked (noWarnings: false)"


def test_state_the_agent_never_reported_fails_with_the_reason() -> None:
    run = _last_turn_run(AgentReply(messages=[AgentMessage(text="hi")]))
    results = anychat_checks(
        {
            "activeAppointments": 0,
            "activePlaybookAtEnd": "general",
            "personFields": {"firstName": "x"},
            "maxModelCallsPerTurn": 5,
            "maxTurnsToOutcome": 3,
        },
        run,
    )
    assert [r.passed for r in results] == [False] * 5
    assert "never reported `appointments`" in results[0].detail
    assert "reported no active playbook" in results[1].detail
    assert "never reported the Person record" in results[2].detail
    assert "reported no model calls" in results[3].detail
    assert "an outcome not recorded in 1 user turn(s)" in results[4].detail


def test_appointment_created_from_state_without_event() -> None:
    run = _trace(
        [
            (
                UserTurn(type="start"),
                AgentReply(state={"appointments": [{"id": "a-9", "status": "scheduled"}]}),
            ),  # present at start: not created
            (
                UserTurn(type="text", text="book"),
                AgentReply(
                    state={
                        "appointments": [
                            {"id": "a-9", "status": "cancelled"},
                            {"id": "a-10", "status": "scheduled"},
                        ]
                    }
                ),
            ),
        ]
    )
    [created, active] = anychat_checks({"appointmentCreated": True, "activeAppointments": 1}, run)
    assert created.passed and "a-10 (scheduled, in the end state)" in created.detail
    assert "a-9" not in created.detail
    assert active.passed and "1 cancelled or completed" in active.detail


def test_max_turns_to_outcome_waits_for_the_expected_outcomes() -> None:
    run = _trace(
        [
            (UserTurn(type="start"), AgentReply()),
            (
                UserTurn(type="text", text="a"),
                AgentReply(events=[{"event": "outcome", "name": "qualified"}]),
            ),
            (UserTurn(type="text", text="b"), AgentReply()),
            (
                UserTurn(type="text", text="c"),
                AgentReply(state={"outcomes": ["qualified", "booked"]}),
            ),
        ]
    )
    results = anychat_checks({"outcomes": ["booked"], "maxTurnsToOutcome": 2}, run)
    assert results[0].passed
    assert not results[1].passed
    assert results[1].detail == "booked recorded after 3 user turn(s) (limit 2)"


def test_outcome_only_in_the_final_record_counts_at_the_close() -> None:
    run = _trace(
        [(UserTurn(type="start"), AgentReply()), (UserTurn(type="text", text="a"), AgentReply())],
        final_state={"outcomes": ["booked"], "activePlaybook": "book"},
    )
    results = anychat_checks(
        {"outcomes": ["booked"], "maxTurnsToOutcome": 1, "activePlaybookAtEnd": "book"}, run
    )
    assert [r.passed for r in results] == [True, True, True]
    assert "at the close" in results[1].detail


def test_no_reply_to_fails_when_the_agent_answers() -> None:
    run = _trace(
        [
            (UserTurn(type="start"), AgentReply()),
            (
                UserTurn(type="system", event="optOut"),
                AgentReply(messages=[AgentMessage(text="You are unsubscribed.")]),
            ),
        ]
    )
    [result] = anychat_checks({"noReplyTo": ["optOut"]}, run)
    assert not result.passed
    assert result.detail == "the agent answered optOut at T1: 'You are unsubscribed.'"


def test_person_record_in_preset_shape_and_from_events() -> None:
    preset = _last_turn_run(
        AgentReply(
            state={
                "person": {
                    "fields": {
                        "firstName": "Maya",
                        "customFields": {"preferredDentist": "Dr. Okafor"},
                    },
                    "consent": {"status": "granted"},
                }
            }
        )
    )
    [result] = anychat_checks(
        {
            "personFields": {
                "firstName": "MAYA",
                "consent": "granted",
                "preferredDentist": "dr. okafor",
            }
        },
        preset,
    )
    assert result.passed, result.detail
    events = _last_turn_run(
        AgentReply(events=[{"event": "person_updated", "fields": {"insuranceProvider": "Cigna"}}])
    )
    [result] = anychat_checks({"personFields": {"insuranceProvider": "cigna"}}, events)
    assert result.passed, result.detail


def test_non_object_checks() -> None:
    [result] = anychat_checks(["pickerShown"], _booking_run())
    assert not result.passed and "must be an object" in result.detail
