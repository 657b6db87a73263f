"""Event patterns built from assertion specs: each assertion type that looks for one event
registers its factory in `PATTERNS`, which reads and checks the spec (a bad spec is a
`SpecError` naming the key) and returns the `_patterns` family's pattern."""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import Any

from ._compare import show
from ._events import BLOCK_EVENTS, SKILL_EVENTS, Button
from ._patterns import (
    BlockPattern,
    BotPattern,
    MemoryPattern,
    Pattern,
    SkillPattern,
    ToolPattern,
)
from ._results import SpecError
from ._spec import spec_bool, spec_map, spec_str

PatternFactory = Callable[[str, Any], Pattern]
PATTERNS: dict[str, PatternFactory] = {}


def event_pattern(*kinds: str) -> Callable[[PatternFactory], PatternFactory]:
    """Register a pattern factory for assertion types that look for one event."""

    def register(factory: PatternFactory) -> PatternFactory:
        for kind in kinds:
            PATTERNS[kind] = factory
        return factory

    return register


def _id(kind: str, spec: Mapping[str, Any], key: str) -> str:
    value = spec_str(kind, spec, key)
    assert value is not None  # spec_map checked it is present
    return value


@event_pattern(*sorted(SKILL_EVENTS))
def skill_pattern(kind: str, spec: Any) -> Pattern:
    # skill_activated/completed carry no step, so a step_id there could never match.
    takes_step = kind not in {"skill_activated", "skill_completed"}
    spec = spec_map(kind, spec, required=["skill_id"], optional=("step_id",) if takes_step else ())
    return SkillPattern(kind, _id(kind, spec, "skill_id"), spec_str(kind, spec, "step_id"))


@event_pattern(*sorted(BLOCK_EVENTS))
def block_pattern(kind: str, spec: Any) -> Pattern:
    takes_step = kind != "ordered_block_entered"
    spec = spec_map(
        kind, spec, required=["skill_id", "block_id"], optional=("step_id",) if takes_step else ()
    )
    return BlockPattern(
        kind,
        _id(kind, spec, "skill_id"),
        _id(kind, spec, "block_id"),
        spec_str(kind, spec, "step_id"),
    )


def memory_pattern(kind: str, item: Any, *, with_value: bool) -> MemoryPattern:
    """One `{name, value?}` item of memory_was_set/_not_set (or `{name}` when not with_value)."""
    item = spec_map(kind, item, required=["name"], optional=("value",) if with_value else ())
    name = _id(kind, item, "name")
    event_type = "memory_cleared" if kind == "memory_was_cleared" else "memory_set"
    if "value" not in item:
        return MemoryPattern(event_type, name)
    if item["value"] is None:
        raise SpecError(
            f"{kind}: value: null is not allowed; leave value out to check the name alone"
        )
    return MemoryPattern(event_type, name, item["value"])


@event_pattern("memory_was_set", "memory_was_cleared")
def _memory_step(kind: str, spec: Any) -> Pattern:
    # Inside sequencing these take one plain name, as Rasa's schema and engine require.
    if not isinstance(spec, str) or not spec:
        raise SpecError(
            f"inside sequencing, {kind} takes one plain memory name "
            f"({kind}: card_replace.replacement_reason), got {show(spec)}"
        )
    return memory_pattern(kind, {"name": spec}, with_value=False)


@event_pattern("tool_executed")
def tool_pattern(kind: str, spec: Any) -> Pattern:
    spec = spec_map(
        kind,
        spec,
        required=["tool_name", "source"],
        optional=["mcp_server", "skill_id", "arguments", "is_error"],
    )
    source = spec["source"]
    if source not in ("local", "mcp"):
        raise SpecError(f"{kind}.source must be local or mcp, got {show(source)}")
    mcp_server = spec_str(kind, spec, "mcp_server")
    if mcp_server is not None and source == "local":
        raise SpecError(f"{kind}.mcp_server is only allowed with source: mcp")
    arguments = spec.get("arguments") or {}
    if not isinstance(arguments, Mapping):
        raise SpecError(f"{kind}.arguments must be a mapping, got {show(arguments)}")
    return ToolPattern(
        "tool_executed",
        tool_name=_id(kind, spec, "tool_name"),
        source=source,
        mcp_server=mcp_server,
        skill_id=spec_str(kind, spec, "skill_id"),
        arguments=dict(arguments),
        is_error=spec_bool(kind, spec, "is_error"),
    )


@event_pattern("bot_uttered", "bot_did_not_utter")
def bot_pattern(kind: str, spec: Any) -> Pattern:
    spec = spec_map(kind, spec, optional=["utter_name", "text_matches", "buttons"])
    if not spec:
        raise SpecError(f"{kind} needs at least one of utter_name, text_matches, buttons")
    regex = None
    if "text_matches" in spec:
        text = spec["text_matches"]
        if not isinstance(text, str):
            raise SpecError(f"{kind}.text_matches must be a string, got {show(text)}")
        try:
            regex = re.compile(text)
        except re.error as exc:
            raise SpecError(
                f"{kind}.text_matches is not a valid regular expression: {exc}"
            ) from None
    raw_buttons = spec.get("buttons", [])
    if not isinstance(raw_buttons, list):
        raise SpecError(f"{kind}.buttons must be a list, got {show(raw_buttons)}")
    buttons = []
    for raw in raw_buttons:
        button = spec_map(f"{kind}.buttons", raw, required=["title"], optional=["payload"])
        buttons.append(Button(title=button["title"], payload=button.get("payload")))
    return BotPattern(
        "bot",
        utter_name=spec_str(kind, spec, "utter_name"),
        text_matches=regex,
        buttons=tuple(buttons),
    )


__all__ = [
    "PATTERNS",
    "PatternFactory",
    "block_pattern",
    "bot_pattern",
    "event_pattern",
    "memory_pattern",
    "skill_pattern",
    "tool_pattern",
]
