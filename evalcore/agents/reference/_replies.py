"""One user turn played on a deterministic Mantle engine, as the agent protocol's reply.

`demo:bank` and the `mantle:DIR` reference agent drive the same engine; this is the one
place that turns what it recorded during a turn into messages, events and state.
"""

from __future__ import annotations

from typing import Any

from .._protocol import AgentMessage, AgentReply, UserTurn
from ._mantle_engine import MantleEngine


def play_turn(engine: MantleEngine, turn: UserTurn, setup: dict[str, Any] | None) -> AgentReply:
    """Start the conversation (seeding `setup`'s initial slots) or answer one user turn."""
    first = len(engine.events)
    if turn.type == "start":
        chosen = turn.setup if turn.setup is not None else setup
        engine.start((chosen or {}).get("initial_slots") or {})
    else:
        engine.start((setup or {}).get("initial_slots") or {})
        engine.receive(turn.as_text() if turn.type != "text" else turn.text or "")
    events = engine.events[first:]
    messages = [
        AgentMessage(
            text=e.get("text") or "",
            response=(e.get("metadata") or {}).get("utter_action"),
            buttons=list((e.get("data") or {}).get("buttons") or []),
        )
        for e in events
        if e["event"] == "bot"
    ]
    return AgentReply(
        messages=messages,
        events=[dict(e) for e in events],
        state={"memory": dict(engine.memory), "skills": [f.skill.id for f in engine.stack]},
        ended=engine.ended,
    )
