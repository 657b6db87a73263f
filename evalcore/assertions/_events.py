"""Typed records of a recorded Rasa tracker (the wire format of `GET .../tracker`).

Assertions are lookups against events, so each event is parsed once into a frozen record with
the fields the checks compare, its position in the log and its user turn. A turn starts at
each `user` event; events before the first user message (session start, a welcome message)
belong to turn 0. Unknown event types are kept as `GenericEvent` so a newer Rasa never breaks
an older casegen, but a malformed entry (not an object, no `event` name, a wrong field type
on a field the checks compare) is a `UserError` naming its index: silently skipping it could
turn a failing assertion into a passing one.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..errors import UserError
from ._compare import show

_HINT = 'give a Rasa tracker ({"events": [...]}) or a JSON list of events'


@dataclass(frozen=True, kw_only=True)
class Event:
    """What every event has: wire type, position, user turn, timestamp and metadata."""

    type: str
    index: int
    """Position in the event list (0-based)."""
    turn: int
    """User turn: 0 before the first `user` event, then 1, 2, … from each `user` event on."""
    timestamp: float | None = None
    metadata: Mapping[str, Any] = field(default_factory=dict)

    def describe(self) -> str:
        """One short phrase naming the event, used in assertion details."""
        return self.type

    def where(self) -> str:
        return f"turn {self.turn} (event {self.index})"


@dataclass(frozen=True, kw_only=True)
class UserEvent(Event):
    text: str | None = None

    def describe(self) -> str:
        return f"user {show(self.text, limit=50)}"


@dataclass(frozen=True, kw_only=True)
class Button:
    title: Any = None
    payload: Any = None


@dataclass(frozen=True, kw_only=True)
class BotEvent(Event):
    text: str | None = None
    utter_action: str | None = None
    """The response name, from `metadata.utter_action` (None for free-form LLM text)."""
    buttons: tuple[Button, ...] = ()

    def describe(self) -> str:
        name = self.utter_action or "bot"
        return f"{name} {show(self.text, limit=50)}"


@dataclass(frozen=True, kw_only=True)
class SkillEvent(Event):
    skill_id: str
    step_id: str | None = None

    def describe(self) -> str:
        step = f" (step {self.step_id})" if self.step_id else ""
        return f"{self.type} {self.skill_id}{step}"


@dataclass(frozen=True, kw_only=True)
class BlockEvent(Event):
    skill_id: str
    block_id: str
    step_id: str | None = None

    def describe(self) -> str:
        step = f" (step {self.step_id})" if self.step_id else ""
        return f"{self.type} {self.skill_id}/{self.block_id}{step}"


@dataclass(frozen=True, kw_only=True)
class MemorySetEvent(Event):
    key: str
    value: Any = None

    def describe(self) -> str:
        return f"memory_set {self.key} = {show(self.value)}"


@dataclass(frozen=True, kw_only=True)
class MemoryClearedEvent(Event):
    key: str

    def describe(self) -> str:
        return f"memory_cleared {self.key}"


@dataclass(frozen=True, kw_only=True)
class ToolEvent(Event):
    tool_name: str
    source: str
    arguments: Mapping[str, Any] = field(default_factory=dict)
    result: Any = None
    is_error: bool = False
    error_message: str | None = None
    mcp_server: str | None = None
    skill_id: str | None = None
    """The skill the call was made for, from `metadata.skill_id`."""

    def describe(self) -> str:
        origin = f"mcp {self.mcp_server}" if self.source == "mcp" else self.source
        parts = [f"source {origin}", f"arguments {show(dict(self.arguments))}"]
        if self.skill_id:
            parts.append(f"skill {self.skill_id}")
        if self.is_error:
            parts.append("is_error true")
        return f"{self.tool_name} ({', '.join(parts)})"


@dataclass(frozen=True, kw_only=True)
class ActionEvent(Event):
    name: str

    def describe(self) -> str:
        return f"action {self.name}"


@dataclass(frozen=True, kw_only=True)
class SlotEvent(Event):
    """A CALM `slot` event (e.g. a posted initial slot). Memory checks never match it."""

    name: str
    value: Any = None

    def describe(self) -> str:
        return f"slot {self.name} = {show(self.value)}"


@dataclass(frozen=True, kw_only=True)
class GenericEvent(Event):
    """Any other event type, kept with its raw payload."""

    data: Mapping[str, Any] = field(default_factory=dict)


SKILL_EVENTS = frozenset(
    {"skill_activated", "skill_completed", "skill_cancelled", "skill_interrupted", "skill_resumed"}
)
BLOCK_EVENTS = frozenset(
    {
        "ordered_block_entered",
        "ordered_block_completed",
        "ordered_block_cancelled",
        "ordered_block_interrupted",
        "ordered_block_resumed",
    }
)


# --- parsing ------------------------------------------------------------------------------


class _Entry:
    """One raw event plus typed field access that fails with the event's index."""

    def __init__(self, raw: Mapping[str, Any], index: int) -> None:
        self.raw = raw
        self.index = index
        self.type: str = raw["event"]

    def fail(self, message: str) -> UserError:
        return UserError(f"malformed event {self.index} ({self.type}): {message}", hint=_HINT)

    def text(
        self, key: str, *, required: bool = False, source: Mapping[str, Any] | None = None
    ) -> str | None:
        value = (self.raw if source is None else source).get(key)
        if value is None:
            if required:
                raise self.fail(f"'{key}' is required")
            return None
        if type(value) is not str and not isinstance(value, str):
            raise self.fail(f"'{key}' must be a string, got {show(value)}")
        return value

    def mapping(self, key: str, *, source: Mapping[str, Any] | None = None) -> Mapping[str, Any]:
        value = (self.raw if source is None else source).get(key)
        if value is None:
            return {}
        if type(value) is not dict and not isinstance(value, Mapping):
            raise self.fail(f"'{key}' must be an object, got {show(value)}")
        return value


_FIELDS: dict[type, int] = {}


def _new(cls: type[Event], base: dict[str, Any], **fields: Any) -> Event:
    """`cls(**base, **fields)` without the frozen dataclass's `object.__setattr__` per
    field (every event of every verification play is parsed): with every field given, the
    record is the same one (equality, hash and repr read the fields); else the class's own
    constructor fills the defaults."""
    values = {**base, **fields}
    count = _FIELDS.get(cls)
    if count is None:
        count = _FIELDS[cls] = len(dataclasses.fields(cls))
    if len(values) != count:
        return cls(**values)
    event = object.__new__(cls)
    event.__dict__.update(values)
    return event


def _user(e: _Entry, base: dict[str, Any]) -> Event:
    return _new(UserEvent, base, text=e.text("text"))


def _bot(e: _Entry, base: dict[str, Any]) -> Event:
    data = e.mapping("data")
    raw_buttons = data.get("buttons") or []
    if not isinstance(raw_buttons, list):
        raise e.fail(f"'data.buttons' must be a list, got {show(raw_buttons)}")
    buttons = []
    for number, button in enumerate(raw_buttons):
        if type(button) is not dict and not isinstance(button, Mapping):
            raise e.fail(f"button {number} must be an object, got {show(button)}")
        buttons.append(Button(title=button.get("title"), payload=button.get("payload")))
    return _new(
        BotEvent,
        base,
        text=e.text("text"),
        utter_action=e.text("utter_action", source=base["metadata"]),
        buttons=tuple(buttons),
    )


def _skill(e: _Entry, base: dict[str, Any]) -> Event:
    return _new(
        SkillEvent, base, skill_id=e.text("skill_id", required=True), step_id=e.text("step_id")
    )


def _block(e: _Entry, base: dict[str, Any]) -> Event:
    return _new(
        BlockEvent,
        base,
        skill_id=e.text("skill_id", required=True),
        block_id=e.text("block_id", required=True),
        step_id=e.text("step_id"),
    )


def _memory_set(e: _Entry, base: dict[str, Any]) -> Event:
    return _new(MemorySetEvent, base, key=e.text("key", required=True), value=e.raw.get("value"))


def _memory_cleared(e: _Entry, base: dict[str, Any]) -> Event:
    return _new(MemoryClearedEvent, base, key=e.text("key", required=True))


def _tool(e: _Entry, base: dict[str, Any]) -> Event:
    is_error = e.raw.get("is_error", False)
    if is_error is None:
        is_error = False
    if not isinstance(is_error, bool):
        raise e.fail(f"'is_error' must be true or false, got {show(is_error)}")
    return _new(
        ToolEvent,
        base,
        tool_name=e.text("tool_name", required=True),
        source=e.text("source", required=True),
        arguments=e.mapping("arguments"),
        result=e.raw.get("result"),
        is_error=is_error,
        error_message=e.text("error_message"),
        mcp_server=e.text("mcp_server"),
        skill_id=e.text("skill_id", source=base["metadata"]),
    )


def _action(e: _Entry, base: dict[str, Any]) -> Event:
    return _new(ActionEvent, base, name=e.text("name", required=True))


def _slot(e: _Entry, base: dict[str, Any]) -> Event:
    return _new(SlotEvent, base, name=e.text("name", required=True), value=e.raw.get("value"))


_PARSERS: dict[str, Callable[[_Entry, dict[str, Any]], Event]] = {
    "user": _user,
    "bot": _bot,
    **{name: _skill for name in SKILL_EVENTS},
    **{name: _block for name in BLOCK_EVENTS},
    "memory_set": _memory_set,
    "memory_cleared": _memory_cleared,
    "tool_executed": _tool,
    "action": _action,
    "slot": _slot,
}


def _raw_events(obj: Any) -> Sequence[Any]:
    if isinstance(obj, Mapping):
        if "events" not in obj:
            raise UserError("the events object has no 'events' list", hint=_HINT)
        obj = obj["events"]
        if obj is None:
            return []
    if not isinstance(obj, list | tuple):
        raise UserError(f"events must be a list, got {type(obj).__name__}", hint=_HINT)
    return obj


def parse_events(obj: Any, *, first: int = 0, turn: int = 0) -> tuple[Event, ...]:
    """Parse a tracker object or a bare event list into typed events (raises `UserError`).

    `first` and `turn` continue a log: the index of its first event and the user turns
    before it (each event is parsed on its own, so a log that shares its opening with an
    already parsed one is that one's opening events plus the rest parsed from there)."""
    events: list[Event] = []
    for index, raw in enumerate(_raw_events(obj), first):
        if type(raw) is not dict and not isinstance(raw, Mapping):
            raise UserError(
                f"malformed event {index}: expected an object, got {show(raw)}", hint=_HINT
            )
        etype = raw.get("event")
        if not isinstance(etype, str) or not etype:
            raise UserError(f"malformed event {index}: no 'event' type name", hint=_HINT)
        entry = _Entry(raw, index)
        if etype == "user":
            turn += 1
        timestamp = raw.get("timestamp")
        if isinstance(timestamp, bool) or not isinstance(timestamp, int | float):
            timestamp = None
        base: dict[str, Any] = {
            "type": etype,
            "index": index,
            "turn": turn,
            "timestamp": timestamp,
            "metadata": entry.mapping("metadata"),
        }
        parser = _PARSERS.get(etype)
        events.append(parser(entry, base) if parser else GenericEvent(**base, data=raw))
    return tuple(events)
