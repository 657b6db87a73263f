"""Event patterns: what a check looks for in one event, and how near a miss came.

Most Mantle checks (and every `sequencing` step) are "some event like this exists". A pattern
states that once: which event types it considers, whether an event is about the same subject
(skill, block, memory key, tool, response), and which fields differ. The checks then share the
searching, and every failure can name the closest recorded event and what was off about it.

Families are kept apart by event type: a skill pattern considers only skill events of its own
type, so it never matches an `ordered_block_*` event, and a memory pattern considers only
`memory_set` / `memory_cleared`, never a CALM `slot` event.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..suggest import close_matches
from ._compare import show, values_equal
from ._events import (
    BlockEvent,
    BotEvent,
    Button,
    Event,
    MemoryClearedEvent,
    MemorySetEvent,
    SkillEvent,
    SlotEvent,
    ToolEvent,
)


@dataclass(frozen=True)
class Pattern:
    """Base pattern: subclasses set `event_type`, implement `want`, `identity` and `mismatches`,
    and may refine `subject`, `label`, `related` and `note` for better failure details."""

    event_type: str

    def want(self) -> str:
        """What the pattern expects, e.g. `skill_completed card_replace`."""
        raise NotImplementedError

    def identity(self, event: Event) -> bool:
        """True when the event is about the same subject (same skill, key, tool, …)."""
        return True

    def subject(self, event: Event) -> str:
        """The event's subject, listed when no event has the wanted one."""
        return event.describe()

    def mismatches(self, event: Event) -> list[str]:
        """What differs between the pattern and a same-subject event (empty: it matches)."""
        return []

    def note(self, events: Sequence[Event]) -> str:
        """An extra hint for a failure (e.g. a CALM slot event that was not counted)."""
        return ""

    # --- shared behaviour -------------------------------------------------------------

    def candidates(self, events: Iterable[Event]) -> list[Event]:
        return [e for e in events if e.type == self.event_type]

    def matches(self, event: Event) -> bool:
        return event.type == self.event_type and self.identity(event) and not self.mismatches(event)

    def find(self, events: Iterable[Event], *, after: int = -1) -> Event | None:
        """The earliest matching event whose index is greater than `after`."""
        return next((e for e in events if e.index > after and self.matches(e)), None)

    def closest(self, events: Sequence[Event]) -> str:
        """`closest: <event> at turn t (event i): <what differs>`, or why there is none."""
        candidates = self.candidates(events)
        same = [e for e in candidates if self.identity(e)]
        note = self.note(events)
        if same:
            best = min(same, key=lambda e: (len(self.mismatches(e)), e.index))
            text = f"closest: {best.describe()} at {best.where()}: " + "; ".join(
                self.mismatches(best) or ["it matches"]
            )
        elif candidates:
            seen = sorted({str(self.subject(e)) for e in candidates})
            text = f"recorded {self.label()} only for: " + ", ".join(seen[:8])
            if len(seen) > 8:
                text += ", …"
            hint = self._did_you_mean(seen)
            if hint:
                text += f" ({hint})"
        else:
            text = f"no {self.label()} recorded"
        related = [e for e in events if e.type != self.event_type and self.related(e)]
        if not same and related:
            shown = ", ".join(f"{e.describe()} at {e.where()}" for e in related[:3])
            text += f"; related: {shown}" + (", …" if len(related) > 3 else "")
        return f"{text}{'; ' + note if note else ''}"

    def label(self) -> str:
        """The events this pattern considers, in words (for "no … recorded")."""
        return f"{self.event_type} events"

    def related(self, event: Event) -> bool:
        """An event of another type about the same subject, worth naming on a miss (e.g. a
        skill_activated when skill_completed was expected)."""
        return False

    def _did_you_mean(self, seen: list[str]) -> str:
        wanted = self.wanted_subject()
        if wanted is None:
            return ""
        # Stricter than lint's cut-off: here a near id is more often another real skill or
        # block the agent chose (a wrong turn, not a typo), and "did you mean" would mislead.
        close = close_matches(wanted, seen, cutoff=0.85)
        return f"did you mean {' or '.join(repr(c) for c in close)}?" if close else ""

    def wanted_subject(self) -> str | None:
        return None


def _differs(label: str, actual: Any, expected: Any) -> str:
    return f"{label} is {show(actual)}, not {show(expected)}"


# --- skills and blocks ------------------------------------------------------------------


@dataclass(frozen=True)
class SkillPattern(Pattern):
    skill_id: str = ""
    step_id: str | None = None

    def want(self) -> str:
        step = f" (step {self.step_id})" if self.step_id else ""
        return f"{self.event_type} {self.skill_id}{step}"

    def identity(self, event: Event) -> bool:
        return isinstance(event, SkillEvent) and event.skill_id == self.skill_id

    def subject(self, event: Event) -> str:
        return event.skill_id if isinstance(event, SkillEvent) else event.describe()

    def wanted_subject(self) -> str | None:
        return self.skill_id

    def related(self, event: Event) -> bool:
        return isinstance(event, SkillEvent | BlockEvent) and event.skill_id == self.skill_id

    def mismatches(self, event: Event) -> list[str]:
        assert isinstance(event, SkillEvent)
        if self.step_id is not None and event.step_id != self.step_id:
            return [_differs("step_id", event.step_id, self.step_id)]
        return []


@dataclass(frozen=True)
class BlockPattern(Pattern):
    skill_id: str = ""
    block_id: str = ""
    step_id: str | None = None

    def want(self) -> str:
        step = f" (step {self.step_id})" if self.step_id else ""
        return f"{self.event_type} {self.skill_id}/{self.block_id}{step}"

    def identity(self, event: Event) -> bool:
        return (
            isinstance(event, BlockEvent)
            and event.skill_id == self.skill_id
            and event.block_id == self.block_id
        )

    def subject(self, event: Event) -> str:
        if isinstance(event, BlockEvent):
            return f"{event.skill_id}/{event.block_id}"
        return event.describe()

    def wanted_subject(self) -> str | None:
        return f"{self.skill_id}/{self.block_id}"

    def related(self, event: Event) -> bool:
        return (
            isinstance(event, BlockEvent)
            and event.skill_id == self.skill_id
            and event.block_id == self.block_id
        )

    def mismatches(self, event: Event) -> list[str]:
        assert isinstance(event, BlockEvent)
        if self.step_id is not None and event.step_id != self.step_id:
            return [_differs("step_id", event.step_id, self.step_id)]
        return []


# --- memory -----------------------------------------------------------------------------

_NO_VALUE = object()


@dataclass(frozen=True)
class MemoryPattern(Pattern):
    """`memory_set` of a key (optionally to a value), or `memory_cleared` of a key."""

    name: str = ""
    value: Any = _NO_VALUE

    @property
    def has_value(self) -> bool:
        return self.value is not _NO_VALUE

    def want(self) -> str:
        value = "" if self.value is _NO_VALUE else f" = {show(self.value)}"
        return f"{self.event_type} {self.name}{value}"

    def identity(self, event: Event) -> bool:
        return isinstance(event, MemorySetEvent | MemoryClearedEvent) and event.key == self.name

    def subject(self, event: Event) -> str:
        return event.key if isinstance(event, MemorySetEvent | MemoryClearedEvent) else ""

    def wanted_subject(self) -> str | None:
        return self.name

    def related(self, event: Event) -> bool:
        return self.identity(event)

    def mismatches(self, event: Event) -> list[str]:
        if self.value is _NO_VALUE or not isinstance(event, MemorySetEvent):
            return []
        if values_equal(self.value, event.value):
            return []
        return [_differs("value", event.value, self.value)]

    def note(self, events: Sequence[Event]) -> str:
        notes = []
        if self.name.startswith("session."):
            notes.append("memory names in assertions take no 'session.' prefix")
        slots = [e for e in events if isinstance(e, SlotEvent) and e.name == self.name]
        if slots:
            notes.append(
                f"a CALM slot event sets it at {slots[0].where()}, and memory checks "
                "never count slot events"
            )
        return "; ".join(notes)


# --- tools ------------------------------------------------------------------------------


@dataclass(frozen=True)
class ToolPattern(Pattern):
    tool_name: str = ""
    source: str = "local"
    mcp_server: str | None = None
    skill_id: str | None = None
    arguments: Mapping[str, Any] = field(default_factory=dict)
    is_error: Any = None

    def want(self) -> str:
        origin = f"mcp {self.mcp_server}" if self.source == "mcp" else self.source
        parts = [f"source {origin}"]
        if self.arguments:
            parts.append(f"arguments {show(dict(self.arguments))}")
        if self.skill_id:
            parts.append(f"skill {self.skill_id}")
        if self.is_error is not None:
            parts.append(f"is_error {show(self.is_error)}")
        return f"{self.event_type} {self.tool_name} ({', '.join(parts)})"

    def identity(self, event: Event) -> bool:
        return isinstance(event, ToolEvent) and event.tool_name == self.tool_name

    def subject(self, event: Event) -> str:
        return event.tool_name if isinstance(event, ToolEvent) else ""

    def wanted_subject(self) -> str | None:
        return self.tool_name

    def mismatches(self, event: Event) -> list[str]:
        """Rasa's `tool_executed_event_matches`: Python `==` on each field, `mcp_server`
        only for an MCP call, and an expected argument of null equals an absent one."""
        assert isinstance(event, ToolEvent)
        out = []
        if event.source != self.source:
            out.append(_differs("source", event.source, self.source))
        elif self.source == "mcp" and event.mcp_server != self.mcp_server:
            out.append(_differs("mcp_server", event.mcp_server, self.mcp_server))
        if self.skill_id is not None and event.skill_id != self.skill_id:
            out.append(_differs("skill_id (metadata)", event.skill_id, self.skill_id))
        for key, expected in self.arguments.items():
            actual = event.arguments.get(key)
            if not values_equal(expected, actual):
                if key not in event.arguments:
                    out.append(f"arguments has no {key!r}")
                else:
                    out.append(_differs(f"arguments.{key}", actual, expected))
        if self.is_error is not None and event.is_error != self.is_error:
            out.append(_differs("is_error", event.is_error, self.is_error))
        return out


# --- bot messages -----------------------------------------------------------------------


@dataclass(frozen=True)
class BotPattern(Pattern):
    """A bot message with a response name, text and buttons (each optional). Rasa's checks
    look for each property on its own (`_bot.py`), one such pattern per property."""

    utter_name: Any = None
    text_matches: re.Pattern[str] | None = None
    buttons: tuple[Button, ...] = ()

    def want(self) -> str:
        parts = []
        if self.utter_name is not None:
            parts.append(str(self.utter_name))
        if self.text_matches is not None:
            parts.append(f"text matching /{self.text_matches.pattern}/")
        if self.buttons:
            parts.append("buttons " + ", ".join(_button(b) for b in self.buttons))
        return "bot message " + " with ".join(parts)

    def label(self) -> str:
        return "bot messages"

    def identity(self, event: Event) -> bool:
        return isinstance(event, BotEvent) and (
            self.utter_name is None or event.utter_action == self.utter_name
        )

    def subject(self, event: Event) -> str:
        if isinstance(event, BotEvent):
            return str(event.utter_action or "(no response name)")
        return ""

    def wanted_subject(self) -> str | None:
        return self.utter_name if isinstance(self.utter_name, str) else None

    def mismatches(self, event: Event) -> list[str]:
        assert isinstance(event, BotEvent)
        out = []
        if self.text_matches is not None and (
            not isinstance(event.text, str) or self.text_matches.search(event.text) is None
        ):
            out.append(
                f"text {show(event.text, limit=60)} does not match /{self.text_matches.pattern}/"
            )
        if self.buttons and not buttons_in_place(self.buttons, event.buttons):
            shown = ", ".join(_button(b) for b in event.buttons) or "none"
            out.append(f"buttons are {shown}")
        return out


def _button(button: Button) -> str:
    payload = f" → {show(button.payload)}" if button.payload is not None else ""
    return f"{show(button.title)}{payload}"


def same_button(wanted: Button, actual: Button) -> bool:
    """Title and payload both equal (an assertion without payload wants none)."""
    return bool(actual.title == wanted.title and actual.payload == wanted.payload)


def buttons_in_place(wanted: Sequence[Button], actual: Sequence[Button]) -> bool:
    """Rasa's `BotUttered._buttons_match`: the message has buttons, and the ones at the same
    positions are the same (compared pairwise up to the shorter list, so a message with
    fewer buttons than the assertion lists can still match, as in Rasa)."""
    if not actual:
        return False
    return all(same_button(w, a) for w, a in zip(wanted, actual, strict=False))
