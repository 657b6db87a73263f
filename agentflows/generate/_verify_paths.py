"""Which mutants a Mantle case can kill: those whose fault lies on the path it plays.

A mutant changes the reference agent at one site (a tool, a step, a memory key, a skill
hand-off). A case whose reference run never reaches that site plays exactly as against the
reference agent, so it cannot kill that mutant and playing it is wasted time. The path is
read from the reference run's tracker events and from what the case's assertions name:

- a tool's faults (`skip_confirmation`, `ignore_requires`, `drop_on_success`,
  `wrong_argument`, `fail_silently`): the tool ran, or its skill ran and an assertion names
  the tool (a case that says the tool must not run catches a gate that lets it);
- `skip_step:<skill>.<block>.<step>`: the block was entered (or the skill ran and records no
  block events: a guided block);
- `forget_memory:<key>`, `wrong_enum:<field>`: the key was written, or an assertion names it;
- `ignore_digression`: a skill was interrupted, or two routable skills ran;
- `never_handoff`: a hand-off skill ran, or an assertion names one.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from evalcore.agents.reference import Mutant
from evalcore.definitions import Project

_TOOL_KINDS = frozenset(
    {"skip_confirmation", "ignore_requires", "drop_on_success", "wrong_argument", "fail_silently"}
)


@dataclass
class CasePath:
    """What one reference run touched."""

    skills: set[str] = field(default_factory=set)
    tools: set[str] = field(default_factory=set)
    blocks: set[tuple[str, str]] = field(default_factory=set)
    memory: set[str] = field(default_factory=set)
    interrupted: bool = False
    named: set[str] = field(default_factory=set)
    """Every string the case's assertions hold (tool names, keys, skill ids)."""


def read_path(events: Sequence[dict[str, Any]], assertions: Any) -> CasePath:
    path = CasePath(named=set(_strings(assertions)))
    for event in events:
        kind = event.get("event")
        if kind == "skill_activated":
            path.skills.add(str(event.get("skill_id")))
        elif kind == "tool_executed":
            path.tools.add(str(event.get("tool_name")))
        elif kind == "ordered_block_entered":
            path.blocks.add((str(event.get("skill_id")), str(event.get("block_id"))))
        elif kind == "memory_set":
            path.memory.add(str(event.get("key")))
        elif kind == "skill_interrupted":
            path.interrupted = True
    return path


def relevant(mutants: Iterable[Mutant], path: CasePath, project: Project) -> list[Mutant]:
    """The mutants whose fault site is on `path`, in the order given."""
    skills = project.mantle.skills if project.mantle is not None else {}
    handoffs = {sid for sid, s in skills.items() if s.is_handoff}
    routable = {sid for sid, s in skills.items() if not s.hidden and not s.disabled}
    out: list[Mutant] = []
    for mutant in mutants:
        target = mutant.target or ""
        if mutant.kind in _TOOL_KINDS:
            hit = target in path.tools or (mutant.skill in path.skills and target in path.named)
        elif mutant.kind == "skip_step":
            skill, _, rest = target.partition(".")
            block = rest.partition(".")[0]
            entered = {b for s, b in path.blocks if s == skill}
            hit = skill in path.skills and (block in entered or not entered)
        elif mutant.kind in ("forget_memory", "wrong_enum"):
            hit = target in path.memory or target in path.named
        elif mutant.kind == "ignore_digression":
            hit = path.interrupted or len(path.skills & routable) >= 2
        elif mutant.kind == "never_handoff":
            hit = bool(handoffs & (path.skills | path.named))
        else:  # a kind added later: play it rather than miss a kill
            hit = True
        if hit:
            out.append(mutant)
    return out


def _strings(value: Any) -> Iterable[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for key, item in value.items():
            yield str(key)
            yield from _strings(item)
    elif isinstance(value, list):
        for item in value:
            yield from _strings(item)


__all__ = ["CasePath", "read_path", "relevant"]
