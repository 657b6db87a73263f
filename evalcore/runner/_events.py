"""The run's event log and transcript, built from what the agent sent back turn by turn.

When the target keeps an authoritative log (a Rasa tracker, `FinalRecord.events`), that log
is used as is. Otherwise the runner concatenates each turn's `AgentReply.events`, with two
additions so assertions see a log shaped like a tracker:

- a `user` event at the start of every user turn whose events have none, because a turn
  starts at each `user` event (`tools_within_one_turn` groups tool calls between them);
- `bot` events made from the turn's messages when the turn's events have no `bot` event, so
  `bot_uttered` works against targets that only return messages (`response` becomes
  `metadata.utter_action`, buttons become `data.buttons`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..agents import AgentMessage, FinalRecord
from ..simulator import Utterance
from ._trace import TurnTrace


def message_text(message: AgentMessage) -> str:
    """How an agent message reads in a transcript: text, then rich parts, chips, buttons."""
    pieces = [message.text.strip()] if message.text.strip() else []
    for part in message.parts:
        kind = str(part.get("type") or part.get("kind") or "part")
        if kind == "text":
            text = str(part.get("text") or "").strip()
            if text and text not in pieces:
                pieces.append(text)
            continue
        label = part.get("prompt") or part.get("title") or part.get("intentId") or ""
        pieces.append(f"[{kind}{': ' + str(label) if label else ''}]")
    if message.chips:
        pieces.append("[chips: " + " | ".join(choice_label(c) for c in message.chips) + "]")
    if message.buttons:
        pieces.append("[buttons: " + " | ".join(choice_label(b) for b in message.buttons) + "]")
    return " ".join(pieces)


def transcript(turns: Sequence[TurnTrace]) -> list[Utterance]:
    """User and agent lines in order, anchored to their turn numbers."""
    lines: list[Utterance] = []
    for turn in turns:
        if turn.number > 0:
            lines.append(Utterance(turn.number, "user", turn.user.as_text()))
        if turn.reply is not None:
            lines.extend(
                Utterance(turn.number, "agent", message_text(m)) for m in turn.reply.messages
            )
    return lines


def event_log(
    turns: Sequence[TurnTrace], final: FinalRecord | None = None, *, started_at: float | None = None
) -> list[dict[str, Any]]:
    """The final event log (see the module docstring); `started_at` is the run's epoch
    start, used to timestamp the events the runner adds."""
    if final is not None and final.events is not None:
        return [dict(e) for e in final.events]
    log: list[dict[str, Any]] = []
    for turn in turns:
        events = [dict(e) for e in (turn.reply.events if turn.reply is not None else [])]
        stamp = None if started_at is None else round(started_at + turn.sent_at_s, 3)
        if turn.number > 0 and not any(e.get("event") == "user" for e in events):
            user: dict[str, Any] = {"event": "user", "text": turn.user.as_text()}
            if stamp is not None:
                user["timestamp"] = stamp
            log.append(user)
        log.extend(events)
        if turn.reply is not None and not any(e.get("event") == "bot" for e in events):
            log.extend(bot_event(m) for m in turn.reply.messages)
    return log


def bot_event(message: AgentMessage) -> dict[str, Any]:
    """A tracker `bot` event for an agent message (reference §6 wire format)."""
    event: dict[str, Any] = {"event": "bot", "text": message.text}
    if message.buttons:
        event["data"] = {"buttons": [dict(b) for b in message.buttons]}
    if message.response:
        event["metadata"] = {"utter_action": message.response}
    return event


def choice_label(item: dict[str, Any]) -> str:
    """How a chip or button reads in a transcript: its title, label, text, id or payload."""
    return str(
        item.get("title")
        or item.get("label")
        or item.get("text")
        or item.get("id")
        or item.get("payload")
        or "?"
    )


__all__ = ["bot_event", "choice_label", "event_log", "message_text", "transcript"]
