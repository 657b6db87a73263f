"""A run's conversation as triage reads it: events and transcript lines, each on a user turn.

The runner records Rasa tracker events for Mantle agents and Anychat-style events for the
others (docs/agent-protocol.md). Triage only needs to know, per event, its user turn, what
kind of thing happened and to what, so both are folded into one tolerant `Ev` here. Unlike
`evalcore.assertions.parse_events`, nothing here raises: a malformed entry is skipped,
because a report about a broken run must still come out when the record is odd.

Turns follow the runner and the judge: turn 0 is everything before the first user message,
turn n is the n-th user message and the agent's answer to it. An explicit `turn` on an event
or a transcript line wins over counting.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

#: Event names that mean "a skill (or Anychat playbook) became active".
ACTIVATIONS = {"skill_activated", "playbook_switched"}
#: Event names that mean a tool ran (Mantle tracker, Anychat protocol).
TOOL_EVENTS = {"tool_executed", "tool_called"}
_AGENT_ROLES = {"agent", "bot", "assistant"}


@dataclass(frozen=True)
class Ev:
    """One recorded event, reduced to what the triage rules compare."""

    index: int
    turn: int
    type: str
    subject: str | None
    """The skill, block (`skill/block`), memory key, tool, response or playbook it is about."""
    raw: Mapping[str, Any]

    @property
    def skill(self) -> str | None:
        """The skill the event belongs to (skill/block events, tool metadata)."""
        value = self.raw.get("skill_id")
        if value is None and isinstance(self.raw.get("metadata"), Mapping):
            value = self.raw["metadata"].get("skill_id")
        return str(value) if value is not None else None

    @property
    def is_error(self) -> bool:
        return self.type in TOOL_EVENTS and self.raw.get("is_error") is True

    @property
    def reports_error(self) -> bool:
        """A tool that returned normally but whose result says it failed (the judge's
        `ok (reports error)`)."""
        if self.type not in TOOL_EVENTS or self.is_error:
            return False
        result = self.raw.get("result")
        if not isinstance(result, Mapping):
            return False
        if result.get("error") or result.get("errors"):
            return True
        return any(result.get(key) is False for key in ("ok", "success"))

    @property
    def text(self) -> str | None:
        value = self.raw.get("text")
        return value if isinstance(value, str) else None

    def describe(self) -> str:
        """A ledger line in the judge's wording (prompts/run/judge.md)."""
        raw = self.raw
        if self.type in TOOL_EVENTS:
            args = raw.get("arguments", raw.get("args")) or {}
            call = f"{self.subject}({_short(args)})"
            if self.is_error:
                message = raw.get("error_message") or _short(raw.get("result"))
                return f"tool: {call} → ERROR" + (f": {message}" if message else "")
            if self.reports_error:
                return f"tool: {call} → ok (reports error): {_short(raw.get('result'))}"
            return f"tool: {call} → ok"
        if self.type == "bot":
            name = self.subject or "bot"
            return f"action: {name} {_quote(self.text)}".rstrip()
        if self.type == "user":
            return f"user: {_quote(self.text)}"
        if self.type == "memory_set":
            return f"memory_set {self.subject} = {_short(raw.get('value'))}"
        if self.type.startswith("skill_"):
            step = f" (step {raw['step_id']})" if raw.get("step_id") else ""
            return f"skill: {self.type} {self.subject}{step}"
        if self.type.startswith("ordered_block_"):
            return f"block: {self.type} {self.subject}"
        if self.type == "playbook_switched":
            return f"playbook: {raw.get('from')} → {self.subject}"
        return f"{self.type} {self.subject or ''}".rstrip()

    def where(self) -> str:
        return f"[T{self.turn}]"


@dataclass(frozen=True)
class Line:
    """One transcript line."""

    turn: int
    role: str
    """`user` or `agent`."""
    text: str


def parse_ledger(events: Any) -> list[Ev]:
    """Tolerantly parse a tracker (`{"events": [...]}`) or an event list."""
    if isinstance(events, Mapping):
        events = events.get("events")
    if not isinstance(events, Sequence) or isinstance(events, str | bytes):
        return []
    out: list[Ev] = []
    turn = 0
    for index, raw in enumerate(events):
        if not isinstance(raw, Mapping) or not isinstance(raw.get("event"), str):
            continue
        kind = raw["event"]
        if kind == "user":
            turn += 1
        explicit = raw.get("turn")
        at = explicit if isinstance(explicit, int) and not isinstance(explicit, bool) else turn
        out.append(Ev(index=index, turn=at, type=kind, subject=_subject(kind, raw), raw=raw))
    return out


def _subject(kind: str, raw: Mapping[str, Any]) -> str | None:
    if kind.startswith("ordered_block_"):
        return f"{raw.get('skill_id')}/{raw.get('block_id')}"
    if kind.startswith("skill_"):
        return _str(raw.get("skill_id"))
    if kind in ("memory_set", "memory_cleared"):
        return _str(raw.get("key"))
    if kind == "tool_executed":
        return _str(raw.get("tool_name"))
    if kind == "tool_called":
        return _str(raw.get("name"))
    if kind == "bot":
        metadata = raw.get("metadata")
        name = metadata.get("utter_action") if isinstance(metadata, Mapping) else None
        return _str(name or raw.get("response"))
    if kind == "playbook_switched":
        return _str(raw.get("to"))
    if kind == "action":
        return _str(raw.get("name"))
    return _str(raw.get("name"))


def parse_transcript(transcript: Any, events: Sequence[Ev]) -> list[Line]:
    """Transcript lines from the record, else from the `user`/`bot` events.

    Accepts `[{"turn"?, "role"|"speaker", "text"|"message"}]`, or strings `"user: ..."`.
    """
    lines: list[Line] = []
    if isinstance(transcript, Sequence) and not isinstance(transcript, str | bytes):
        turn = 0
        for item in transcript:
            role, text, explicit = _line_parts(item)
            if role is None:
                continue
            if role == "user":
                turn += 1
            at = explicit if explicit is not None else turn
            lines.append(Line(turn=at, role=role, text=text))
    if lines:
        return lines
    for ev in events:
        if ev.type in ("user", "bot") and ev.text:
            lines.append(Line(ev.turn, "user" if ev.type == "user" else "agent", ev.text))
    return lines


def _line_parts(item: Any) -> tuple[str | None, str, int | None]:
    if isinstance(item, str):
        head, sep, rest = item.partition(":")
        role = head.strip().lower()
        if not sep or (role != "user" and role not in _AGENT_ROLES):
            return None, "", None
        return ("user" if role == "user" else "agent"), rest.strip(), None
    if not isinstance(item, Mapping):
        return None, "", None
    role = str(item.get("role") or item.get("speaker") or item.get("sender") or "").lower()
    if role != "user" and role not in _AGENT_ROLES:
        return None, "", None
    text = item.get("text", item.get("message", item.get("content")))
    turn = item.get("turn")
    explicit = turn if isinstance(turn, int) and not isinstance(turn, bool) else None
    return ("user" if role == "user" else "agent"), str(text or ""), explicit


def _str(value: Any) -> str | None:
    return None if value is None else str(value)


def _short(value: Any, limit: int = 120) -> str:
    if isinstance(value, Mapping):
        text = ", ".join(
            f"{k}={json.dumps(v, ensure_ascii=False, default=str)}" for k, v in value.items()
        )
    elif value is None:
        text = ""
    else:
        text = json.dumps(value, ensure_ascii=False, default=str)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _quote(text: str | None, limit: int = 100) -> str:
    if not text:
        return ""
    flat = " ".join(text.split())
    return f"“{flat if len(flat) <= limit else flat[: limit - 1] + '…'}”"


__all__ = ["ACTIVATIONS", "TOOL_EVENTS", "Ev", "Line", "parse_ledger", "parse_transcript"]
