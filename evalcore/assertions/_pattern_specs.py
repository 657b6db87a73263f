"""Event patterns built from assertion specs: each assertion type that looks for one event
registers its factory in `PATTERNS`, which reads and checks the spec (a bad spec is a
`SpecError` naming the key) and returns the `_patterns` family's pattern.

A spec is refused where Rasa's `Assertion.from_dict` raises (`rasa/e2e_test/
mantle_assertions.py`): an empty or missing id, `step_id` on a check whose event has none,
`value: null`, `source: mcp` without an `mcp_server` key, `mcp_server` on a local call. What
Rasa accepts is accepted as Rasa reads it (`step_id: null` or `skill_id: null` check nothing,
`mcp_server: null` is the server of an MCP run recorded without one, `is_error` compares with
`==`). casegen is stricter in one way only: an unknown key is refused (Rasa's scenario schema
refuses it before the engine ever sees it)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from ._compare import show
from ._events import BLOCK_EVENTS, SKILL_EVENTS
from ._patterns import (
    BlockPattern,
    MemoryPattern,
    Pattern,
    SkillPattern,
    ToolPattern,
)
from ._results import SpecError
from ._spec import spec_map, spec_str

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


def _optional(kind: str, spec: Mapping[str, Any], key: str) -> str | None:
    """An optional id where null means "not asserted", as Rasa reads `step_id`/`skill_id`."""
    return None if spec.get(key) is None else spec_str(kind, spec, key)


@event_pattern(*sorted(SKILL_EVENTS))
def skill_pattern(kind: str, spec: Any) -> Pattern:
    # skill_activated/completed carry no step, so a step_id there could never match.
    takes_step = kind not in {"skill_activated", "skill_completed"}
    spec = spec_map(kind, spec, required=["skill_id"], optional=("step_id",) if takes_step else ())
    return SkillPattern(kind, _id(kind, spec, "skill_id"), _optional(kind, spec, "step_id"))


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
        _optional(kind, spec, "step_id"),
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
    if source == "mcp" and "mcp_server" not in spec:
        raise SpecError(f"{kind} with source: mcp needs mcp_server (the server's name)")
    if source == "local" and "mcp_server" in spec:
        raise SpecError(f"{kind}.mcp_server is only allowed with source: mcp")
    arguments = spec.get("arguments") or {}
    if not isinstance(arguments, Mapping):
        raise SpecError(f"{kind}.arguments must be a mapping, got {show(arguments)}")
    return ToolPattern(
        "tool_executed",
        tool_name=_id(kind, spec, "tool_name"),
        source=source,
        mcp_server=_optional(kind, spec, "mcp_server"),
        skill_id=_optional(kind, spec, "skill_id"),
        arguments=dict(arguments),
        is_error=spec.get("is_error"),
    )


__all__ = [
    "PATTERNS",
    "PatternFactory",
    "block_pattern",
    "event_pattern",
    "memory_pattern",
    "skill_pattern",
    "tool_pattern",
]
