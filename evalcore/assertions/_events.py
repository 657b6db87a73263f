"""Typed records of a recorded Rasa tracker (the wire format of `GET .../tracker`).

Assertions are lookups against events, so each event is parsed once into a frozen record with
the fields the checks compare, its position in the log and its user turn. Events are read the
way Rasa's tracker reader (`deserialise_events`, which `evaluate_agent` uses) reads them, so a
verdict is the one Rasa gives:

- an entry Rasa's event model refuses (a `memory_set` without `value`, a `tool_executed`
  without `arguments` or with `mcp_server` on a local run, a `skill_cancelled` without
  `step_id`, an entry without an `event` name) is kept as a `RefusedEvent` that no check
  matches, where Rasa skips it;
- field values are kept as written (a number where an id is expected simply matches nothing);
- a turn opens at a `user` event whose text, stripped, is non-empty and does not start with
  `/` (Rasa's `split_into_turns`); events before the first such message are turn 0.

Unknown event types are kept as `GenericEvent`. An entry that is not an object, or a field
Rasa's own reader would crash on (`metadata` or `data` that is not an object, `buttons` that
are not a list of objects), is a `UserError` naming its index.
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
    text: Any = None

    def describe(self) -> str:
        return f"user {show(self.text, limit=50)}"


@dataclass(frozen=True, kw_only=True)
class Button:
    title: Any = None
    payload: Any = None


@dataclass(frozen=True, kw_only=True)
class BotEvent(Event):
    text: Any = None
    """As written: Rasa's regex search raises on a message whose text is not a string."""
    utter_action: Any = None
    """The response name, from `metadata.utter_action` (None for free-form LLM text)."""
    buttons: tuple[Button, ...] = ()

    def describe(self) -> str:
        name = self.utter_action or "bot"
        return f"{name} {show(self.text, limit=50)}"


@dataclass(frozen=True, kw_only=True)
class SkillEvent(Event):
    skill_id: Any
    step_id: Any = None

    def describe(self) -> str:
        step = f" (step {self.step_id})" if self.step_id else ""
        return f"{self.type} {self.skill_id}{step}"


@dataclass(frozen=True, kw_only=True)
class BlockEvent(Event):
    skill_id: Any
    block_id: Any
    step_id: Any = None

    def describe(self) -> str:
        step = f" (step {self.step_id})" if self.step_id else ""
        return f"{self.type} {self.skill_id}/{self.block_id}{step}"


@dataclass(frozen=True, kw_only=True)
class MemorySetEvent(Event):
    key: Any
    value: Any = None

    def describe(self) -> str:
        return f"memory_set {self.key} = {show(self.value)}"


@dataclass(frozen=True, kw_only=True)
class MemoryClearedEvent(Event):
    key: Any

    def describe(self) -> str:
        return f"memory_cleared {self.key}"


@dataclass(frozen=True, kw_only=True)
class ToolEvent(Event):
    tool_name: Any
    source: str
    arguments: Mapping[str, Any] = field(default_factory=dict)
    result: Any = None
    is_error: Any = False
    """As written (`null` stays null and equals neither true nor false, as in Rasa)."""
    error_message: Any = None
    mcp_server: Any = None
    skill_id: Any = None
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
    name: Any

    def describe(self) -> str:
        return f"action {self.name}"


@dataclass(frozen=True, kw_only=True)
class SlotEvent(Event):
    """A CALM `slot` event (e.g. a posted initial slot). Memory checks never match it."""

    name: Any
    value: Any = None

    def describe(self) -> str:
        return f"slot {self.name} = {show(self.value)}"


@dataclass(frozen=True, kw_only=True)
class RefusedEvent(Event):
    """An entry Rasa's tracker reader skips (its event model refuses it); no check matches it."""

    reason: str

    def describe(self) -> str:
        return f"{self.type} (skipped, as Rasa does: {self.reason})"


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


class _Refused(Exception):
    """Rasa's event model refuses the entry (`deserialise_events` skips it)."""


class _Entry:
    """One raw event plus field access that fails with the event's index."""

    def __init__(self, raw: Mapping[str, Any], index: int) -> None:
        self.raw = raw
        self.index = index
        self.type: str = raw["event"]

    def fail(self, message: str) -> UserError:
        return UserError(f"malformed event {self.index} ({self.type}): {message}", hint=_HINT)

    def need(self, *keys: str) -> None:
        """Rasa's `_from_parameters` refuses the entry when a key is absent (null is kept)."""
        for key in keys:
            if key not in self.raw:
                raise _Refused(f"'{key}' is required")

    def get(self, key: str) -> Any:
        return self.raw.get(key)

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
    return _new(UserEvent, base, text=e.get("text"))


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
        text=e.get("text"),
        utter_action=base["metadata"].get("utter_action"),
        buttons=tuple(buttons),
    )


#: Lifecycle events whose `step_id` Rasa's event model requires (present, null allowed).
_WITH_STEP = frozenset({"skill_cancelled", "skill_interrupted", "skill_resumed"})


def _skill(e: _Entry, base: dict[str, Any]) -> Event:
    e.need("skill_id", *(("step_id",) if e.type in _WITH_STEP else ()))
    return _new(SkillEvent, base, skill_id=e.get("skill_id"), step_id=e.get("step_id"))


def _block(e: _Entry, base: dict[str, Any]) -> Event:
    e.need("skill_id", "block_id", *(("step_id",) if e.type != "ordered_block_entered" else ()))
    return _new(
        BlockEvent,
        base,
        skill_id=e.get("skill_id"),
        block_id=e.get("block_id"),
        step_id=e.get("step_id"),
    )


def _memory_set(e: _Entry, base: dict[str, Any]) -> Event:
    e.need("key", "value")
    return _new(MemorySetEvent, base, key=e.get("key"), value=e.get("value"))


def _memory_cleared(e: _Entry, base: dict[str, Any]) -> Event:
    e.need("key")
    return _new(MemoryClearedEvent, base, key=e.get("key"))


def _tool(e: _Entry, base: dict[str, Any]) -> Event:
    e.need("tool_name", "arguments", "source")
    source = e.get("source")
    if source not in ("local", "mcp"):
        raise _Refused(f"unsupported tool source {show(source)}")
    if source == "local" and e.get("mcp_server") is not None:
        raise _Refused("mcp_server is only valid for MCP tools")
    return _new(
        ToolEvent,
        base,
        tool_name=e.get("tool_name"),
        source=source,
        arguments=e.mapping("arguments"),
        result=e.get("result"),
        is_error=e.raw.get("is_error", False),
        error_message=e.get("error_message"),
        mcp_server=e.get("mcp_server"),
        skill_id=base["metadata"].get("skill_id"),
    )


def _action(e: _Entry, base: dict[str, Any]) -> Event:
    return _new(ActionEvent, base, name=e.get("name"))


def _slot(e: _Entry, base: dict[str, Any]) -> Event:
    return _new(SlotEvent, base, name=e.get("name"), value=e.get("value"))


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


def opens_turn(text: Any) -> bool:
    """Whether a user message with this text opens a turn (Rasa's `split_into_turns`): a
    command (`/restart`) or an empty message stays in the current turn."""
    if not isinstance(text, str):
        return bool(text)
    stripped = text.strip()
    return bool(stripped) and not stripped.startswith("/")


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
        if etype == "user" and opens_turn(raw.get("text")):
            turn += 1
        timestamp = raw.get("timestamp")
        if isinstance(timestamp, bool) or not isinstance(timestamp, int | float):
            timestamp = None
        base: dict[str, Any] = {
            "type": etype if isinstance(etype, str) and etype else "(no event name)",
            "index": index,
            "turn": turn,
            "timestamp": timestamp,
            "metadata": {},
        }
        if not isinstance(etype, str) or not etype:
            events.append(RefusedEvent(**base, reason="no 'event' type name"))
            continue
        entry = _Entry(raw, index)
        base["metadata"] = entry.mapping("metadata")
        parser = _PARSERS.get(etype)
        try:
            events.append(parser(entry, base) if parser else GenericEvent(**base, data=raw))
        except _Refused as refused:
            events.append(RefusedEvent(**base, reason=str(refused)))
    return tuple(events)
