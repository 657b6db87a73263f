"""In-process agents for `python:` target tests (and a handler reused by the HTTP fake).

A tiny clinic-like policy that speaks the JSON protocol of docs/agent-protocol.md: it reports
tool calls, playbook switches, model calls and the Anychat state the checks read.
"""

from __future__ import annotations

import asyncio
from typing import Any

SESSIONS: dict[str, dict[str, Any]] = {}
CALLS: list[dict[str, Any]] = []


def _state(s: dict[str, Any]) -> dict[str, Any]:
    return {
        "activePlaybook": s["playbook"],
        "outcomes": list(s["outcomes"]),
        "appointments": list(s["appointments"]),
        "person": dict(s["person"]),
        "modelCalls": 1,
    }


def handle(request: dict[str, Any]) -> dict[str, Any] | None:
    """A stateful function agent: state lives in SESSIONS, keyed by the session id."""
    CALLS.append(request)
    session = request["session"]
    if request.get("close"):
        s = SESSIONS.pop(session)
        return {"state": _state(s), "meta": {"turns": s["turns"]}}
    turn = request["turn"]
    if turn["type"] == "start":
        SESSIONS[session] = {
            "playbook": "general",
            "outcomes": [],
            "appointments": [],
            "person": {"phone": "+15550177"},
            "turns": 0,
        }
        return None
    s = SESSIONS[session]
    s["turns"] += 1
    text = turn.get("text") or turn.get("fallback") or ""
    if "book" in text.lower():
        s["playbook"] = "book"
        return {
            "messages": [
                {
                    "text": "Pick a time:",
                    "parts": [
                        {"type": "text", "text": "Pick a time:"},
                        {
                            "type": "ask.time",
                            "intentId": "pick",
                            "slots": [{"id": "s-1", "start": {"iso": "2026-03-10T10:30:00-05:00"}}],
                        },
                    ],
                }
            ],
            "events": [
                {"event": "playbook_switched", "from": "general", "to": "book"},
                {
                    "event": "tool_called",
                    "name": "check_availability",
                    "args": {"service": "cleaning"},
                },
            ],
            "state": _state(s),
        }
    if turn["type"] == "slot":
        s["appointments"].append(
            {"id": "a-1", "start": "2026-03-10T10:30:00-05:00", "status": "scheduled"}
        )
        s["outcomes"].append("booked")
        return {
            "messages": [{"text": "Booked for Tuesday 10:30."}],
            "events": [
                {"event": "tool_called", "name": "book_appointment", "args": {"slot_id": "s-1"}},
                {"event": "outcome", "name": "booked"},
            ],
            "state": _state(s),
        }
    return {"messages": [{"text": f"You said: {text}"}], "state": _state(s)}


async def handle_async(request: dict[str, Any]) -> dict[str, Any] | None:
    await asyncio.sleep(0)
    return handle(request)


class Agent:
    """A class agent: one instance per session, state on `self`."""

    instances = 0

    def __init__(self) -> None:
        type(self).instances += 1
        self.turns: list[str] = []

    async def __call__(self, request: dict[str, Any]) -> dict[str, Any] | None:
        if request.get("close"):
            return {"state": {"turns": list(self.turns)}}
        turn = request["turn"]
        if turn["type"] == "start":
            return {"messages": [{"text": "Hi!"}]}
        self.turns.append(turn.get("text", ""))
        return {"messages": [{"text": f"#{len(self.turns)}"}]}


def broken(request: dict[str, Any]) -> dict[str, Any]:
    raise RuntimeError("database is down")


def wrong_shape(request: dict[str, Any]) -> Any:
    return ["not", "a", "reply"] if "turn" in request else None


def bad_message(request: dict[str, Any]) -> Any:
    return {"messages": [{"text": 42}]}


NOT_CALLABLE = 3
