"""Order a correct agent cannot change, as extra `sequencing` steps of a path.

Two orders hold for every agent that runs a skill as its definition says, whatever words it
uses (reference §2.1: `sequencing` takes `tool_executed` and plain `memory_was_set` steps,
each matched after the previous one, gaps allowed):

- an ordered block runs its steps in order: a block's `execute_tool` step runs before any
  later step of the same block waits for the user or runs its own tool, so the tool comes
  before the first such field or call that follows it on the path (a field the path had
  earlier, e.g. given up front, does not count). An agent that skips the lookup and calls
  the tool later, once the user answered, fails it;
- a tool whose `requires` names memory can run only once that memory is written, so what the
  tool writes is first written after the last of those keys the path writes before the call
  (a tool that writes nothing a case may assert, or only what an outside service answers:
  the call itself comes after it). An agent that calls the tool
  before its `requires` holds wrote its key too early (a later call that writes the same
  value again records nothing new).

A tool is never ordered against its own writes: Rasa writes a tool's `context.memory.set`
to the tracker while the tool runs, before the `tool_executed` event it records once the
tool returns (rasa-pro 3.22: `MemorySlice.set` writes through at call time; the
orchestrator applies `ToolExecuted` after the dispatch), while an interpreter may record
them the other way round. `without_own_writes` keeps the write and drops such a tool step:
the write still orders the call against what came before and after it.

Each step is placed at the walk's event index, so `sequence` merges them with its own steps
in the walk's order.
"""

from __future__ import annotations

from collections.abc import Callable, Collection

from evalcore.definitions import Skill
from evalcore.definitions.conditions import condition_keys
from evalcore.definitions.skill_model import qualify

from ...planning.mantle_offers import Walk
from ._mantle_checks import Check, short_tool

Placed = list[tuple[int, Check]]


def block_tool_marks(skill: Skill, walk: Walk) -> Placed:
    """Each block `execute_tool` run on the path, then the first field a later step of the
    same block records after it, or the first tool a later step of the block runs."""
    sites: dict[str, tuple[str, list[str]]] = {}
    tool_steps: dict[tuple[str, str], str] = {}
    for block in skill.blocks.values():
        ids = [s.id for s in block.steps]
        for step in block.steps:
            element = f"step:{skill.id}.{block.id}.{step.id}"
            if step.kind == "execute_tool" and element in walk.elements:
                sites.setdefault(str(step.target), (block.id, ids[ids.index(step.id) + 1 :]))
                tool_steps.setdefault((block.id, str(step.target)), step.id)
    out: Placed = []
    events = walk.events
    for index, event in enumerate(events):
        if event.kind != "tool" or event.error or event.skill != skill.id:
            continue
        site = sites.get(event.tool or "")
        if site is None:
            continue
        block_id, later = site
        waits = {
            a.field
            for a in walk.asks
            if a.field and a.block == block_id and a.step in later and a.kind != "confirm"
        }
        runs = {t for (b, t), step in tool_steps.items() if b == block_id and step in later}
        before = {e.key for e in events[:index] if e.kind == "memory"}
        for after in range(index + 1, len(events)):
            then = events[after]
            if then.kind == "memory" and then.key in waits and then.key not in before:
                out += [(index, short_tool(event)), (after, {"memory_was_set": then.key})]
                break
            if then.kind == "tool" and then.tool in runs and then.skill == skill.id:
                out += [(index, short_tool(event)), (after, short_tool(then))]
                break
    return out


def requires_marks(skill: Skill, walk: Walk, writes: Callable[[str], list[str]]) -> Placed:
    """For each tool run whose `requires` names memory the path writes after activation: the
    last such write before the call, then the first key the call writes (`writes(tool)`: the
    keys the tool's code writes) that nothing wrote before it, else the call."""
    events = walk.events
    start = next((i for i, e in enumerate(events) if e.kind == "skill_activated"), 0)
    out: Placed = []
    for index, event in enumerate(events):
        if event.kind != "tool" or event.error or event.skill != skill.id:
            continue
        constraint = skill.tool_constraints.get(event.tool or "")
        keys = set(condition_keys(str(constraint.requires))) if constraint else set()
        if not keys:
            continue
        anchor = next(
            (
                i
                for i in range(index - 1, start, -1)
                if events[i].kind == "memory" and events[i].key in keys
            ),
            None,
        )
        written = set(writes(event.tool or ""))
        before = {e.key for e in events[:index] if e.kind == "memory"}
        first = next(
            (
                i
                for i in range(index + 1, len(events))
                if events[i].kind == "memory"
                and events[i].key in written
                and events[i].key not in before
            ),
            None,
        )
        if anchor is None:
            continue
        out.append((anchor, {"memory_was_set": events[anchor].key}))
        # what the call writes, else the call itself (one of the two: see the module doc)
        out.append(
            (first, {"memory_was_set": events[first].key})
            if first is not None
            else (index, short_tool(event))
        )
    return out


def runs_before_ask(skill: Skill, key: str, placed: Placed) -> Placed:
    """The `tool_executed` steps of `placed` that an ordered block of `skill` runs as
    `execute_tool` steps before the step that waits for `key` (its `complete_when` or
    `collect`): a value the user gave up front may be recorded at once or only at that
    step, so it is ordered neither before nor after them."""
    tools: set[str] = set()
    for block in skill.blocks.values():
        ahead: set[str] = set()
        for step in block.steps:
            waits = condition_keys(str(step.fields.get("complete_when") or ""))
            if step.kind == "collect":
                waits.append(qualify(str(step.target), skill.id))
            if key in waits:
                tools |= ahead
                break
            if step.kind == "execute_tool":
                ahead.add(str(step.target))
    out: Placed = []
    for index, check in placed:
        body = check.get("tool_executed")
        if isinstance(body, dict) and body.get("tool_name") in tools:
            out.append((index, check))
    return out


def merged(placed: Placed) -> list[Check]:
    """The steps in event order, one per event (two builders placing the same event's step
    would make `sequencing` look for it twice)."""
    seen: set[tuple[int, str]] = set()
    out: list[Check] = []
    for index, check in sorted(placed, key=lambda p: p[0]):
        key = (index, repr(check))
        if key in seen:
            continue
        seen.add(key)
        out.append(check)
    return out


def without_own_writes(steps: list[Check], writes: Callable[[str], Collection[str]]) -> list[Check]:
    """`steps` without each `tool_executed` step that a later `memory_was_set` step of a
    key the tool itself writes (`writes(tool)`: qualified keys) follows (see the module
    doc: that order is the interpreter's, not Rasa's)."""
    out: list[Check] = []
    for index, step in enumerate(steps):
        body = step.get("tool_executed")
        if isinstance(body, dict):
            own = writes(str(body.get("tool_name")))
            later = [s.get("memory_was_set") for s in steps[index + 1 :]]
            if any(isinstance(k, str) and k in own for k in later):
                continue
        out.append(step)
    return out


__all__ = [
    "block_tool_marks",
    "merged",
    "requires_marks",
    "runs_before_ask",
    "without_own_writes",
]
