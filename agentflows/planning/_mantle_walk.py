"""Walk one Mantle skill for one set of answers and tool outcomes: the reference agent's run.

The walk is the planner's model of a conversation: it lists where the agent waits for the
user (`Ask`), what the runtime records meanwhile (`Event`: skill and block lifecycle, memory
writes, tool runs, responses) and which definition elements that exercises. Planning uses it
for `covers`; the offline drafter turns the asks into numbered user lines and the events into
assertions. There is one executable reading of a skill: the walk is the reference agent
(`evalcore.agents.reference`) run with a scripted user (`_mantle_reference_walk`), the agent
verification replays every draft on, so a draft agrees with it by construction.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import replace
from typing import Any

from evalcore.definitions import Project, memoized

from ._mantle_reference_walk import reference_walk
from ._mantle_walk_records import SET, Ask, Event, Setup, Walk, sample_value


def walk_skill(project: Project, skill_id: str, setup: Setup | None = None) -> Walk:
    """Walk `skill_id` for one behaviour (see the module docstring).

    A walk depends only on the loaded project, the skill and the setup, so it is kept per
    loaded project and exact setup (values with their types, mappings in order): planning
    walks a skill again for each behaviour it weighs, and drafting walks a case twice,
    often with the same values. The caller gets its own lists and memory."""
    setup = setup or Setup()
    note_walk(skill_id, setup)
    key = _setup_key(setup)
    if key is None:  # an unhashable value: walk it afresh
        return reference_walk(project, skill_id, setup)
    kept = memoized(
        project, ("walk", skill_id, key), lambda: reference_walk(project, skill_id, setup)
    )
    return replace(
        kept,
        asks=list(kept.asks),
        events=list(kept.events),
        elements=list(kept.elements),
        memory=dict(kept.memory),
        success=list(kept.success),
        expected=list(kept.expected),
    )


_EXPLORED: ContextVar[list[tuple[str, Setup]] | None] = ContextVar("explored", default=None)


@contextmanager
def exploring() -> Iterator[list[tuple[str, Setup]]]:
    """Note every (skill, setup) walked inside the block, in order, memoized or not: the
    paths the planner explored (`_mantle_explore`)."""
    seen: list[tuple[str, Setup]] = []
    token = _EXPLORED.set(seen)
    try:
        yield seen
    finally:
        _EXPLORED.reset(token)


def note_walk(skill_id: str, setup: Setup) -> None:
    """Note a walk for `exploring` (a caller that keeps walks itself notes its hits)."""
    explored = _EXPLORED.get()
    if explored is not None:
        explored.append((skill_id, setup))


def _items(mapping: Mapping[str, Any]) -> tuple[tuple[str, type, Any], ...]:
    return tuple((k, type(v), v) for k, v in mapping.items())


def _setup_key(setup: Setup) -> Hashable | None:
    """Everything a walk reads from its setup, hashable, or None when a value is not."""
    key = (
        _items(setup.values),
        tuple(setup.given),  # in iteration order: equal sets that iterate apart miss
        _items(setup.confirm),
        tuple(setup.failing),
        tuple((k, tuple(v)) for k, v in setup.negative.items()),
        tuple(sorted(setup.cues)),
        _items(setup.memory),
        setup.entry,
        setup.context,
    )
    try:
        hash(key)
    except TypeError:
        return None
    return key


__all__ = [
    "SET",
    "Ask",
    "Event",
    "Setup",
    "Walk",
    "exploring",
    "note_walk",
    "sample_value",
    "walk_skill",
]
