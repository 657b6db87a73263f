"""The evidence Anychat `expect.checks` read: a run's turns, messages, events and states,
indexed once per evaluation, with the readings of a message every check shares (the text a
person can read, its chips and part types, silence)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from ...agents import AgentMessage, AgentReply
from .._trace import RunTrace

PICKER_PARTS = ("ask.time", "ask.choice")
_TEXT_KEYS = ("text", "prompt", "title", "subtitle", "description", "label")


# --- evidence -------------------------------------------------------------------------------


@dataclass(frozen=True)
class _Turn:
    number: int
    label: str
    """How the input reads (`'R'`, `[system optOut]`)."""
    kind: str
    system_event: str | None
    reply: AgentReply | None


class Evidence:
    """The run, indexed the way the checks read it (built once per evaluation)."""

    def __init__(self, trace: RunTrace) -> None:
        self.turns = [
            _Turn(t.number, _quote(t.user.as_text()), t.user.type, t.user.event, t.reply)
            for t in trace.turns
        ]
        self.state: dict[str, Any] = trace.state
        self.messages = [
            (turn.number, message)
            for turn in self.turns
            if turn.reply
            for message in turn.reply.messages
        ]
        self.events = [
            (turn.number, event)
            for turn in self.turns
            if turn.reply
            for event in turn.reply.events
            if isinstance(event, Mapping)
        ]
        self.final_state = dict(trace.final.state)

    def events_named(self, name: str) -> list[tuple[int, Mapping[str, Any]]]:
        return [(n, e) for n, e in self.events if e.get("event") == name]

    @property
    def last(self) -> _Turn | None:
        return self.turns[-1] if self.turns else None


def _quote(text: str) -> str:
    text = " ".join(text.split())
    text = text if len(text) <= 40 else text[:39] + "…"
    return text if text.startswith("[") else repr(text)


def _strings(value: Any) -> Iterable[str]:
    """Text-bearing values of a part, recursively (prompt, labels of slots and options, …)."""
    if isinstance(value, Mapping):
        for key, item in value.items():
            if key in _TEXT_KEYS and isinstance(item, str):
                yield item
            elif isinstance(item, Mapping | list):
                yield from _strings(item)
    elif isinstance(value, list):
        for item in value:
            yield from _strings(item)


def text_pieces(message: AgentMessage) -> list[str]:
    """Everything the person can read in a message, piece by piece: the text, the parts'
    texts (prompts, slot and option labels), chip and button labels."""
    pieces = [message.text, *_strings(message.parts)]
    pieces += [str(c.get(k)) for c in message.chips for k in ("label", "title") if c.get(k)]
    pieces += [str(b["title"]) for b in message.buttons if b.get("title")]
    return [p for p in pieces if p]


def visible_text(message: AgentMessage) -> str:
    return "\n".join(text_pieces(message))


def chips_of(message: AgentMessage) -> list[Mapping[str, Any]]:
    """Chips in the message's `chips`, or sent as a `chips` part."""
    chips = [c for c in message.chips if isinstance(c, Mapping)]
    for part in message.parts:
        if part.get("type") == "chips":
            for key in ("chips", "items", "options"):
                chips += [c for c in part.get(key) or [] if isinstance(c, Mapping)]
    return chips


def part_types(message: AgentMessage) -> set[str]:
    """A message's part types; a message without parts is one `text` part if it has text."""
    types = {str(p.get("type")) for p in message.parts if p.get("type")}
    if not message.parts and message.text.strip():
        types.add("text")
    if message.chips:
        types.add("chips")
    return types


def is_silent(reply: AgentReply | None) -> bool:
    return reply is None or not any(_shows(m) for m in reply.messages)


def _shows(message: AgentMessage) -> bool:
    return bool(message.text.strip() or message.parts or message.chips or message.buttons)


def _norm(value: Any) -> str:
    """Person-field comparison form: strings, case-insensitive; true/false; 3.0 → 3."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    return str(value).strip().casefold()


def _names(items: Iterable[Any]) -> str:
    items = list(items)
    return ", ".join(str(i) for i in items) if items else "none"


__all__ = [
    "PICKER_PARTS",
    "Evidence",
    "chips_of",
    "is_silent",
    "part_types",
    "text_pieces",
    "visible_text",
]
