"""Which mutants a Mantle case can kill: those whose fault lies on the path it plays.

A mutant changes the reference agent at one site (a tool, a step, a memory key, a skill
hand-off). A case whose reference run never reaches that site plays exactly as against the
reference agent, so it cannot kill that mutant and playing it is wasted time. The path is
read from the reference run's tracker events and from what the case's assertions name:

- a tool's faults (`skip_confirmation`, `ignore_requires`, `drop_on_success`,
  `wrong_argument`, `fail_silently`): the tool ran, or its skill ran and an assertion names
  the tool (a case that says the tool must not run catches a gate that lets it);
- `wrong_argument`: the tool ran and an assertion names it (a wrong argument shows in the
  call's arguments; what it changes downstream, the other kinds catch);
- `skip_step:<skill>.<block>.<step>`: the step left its mark in the run (the tool it runs
  ran, the field it collects or the key it sets was written, the response it utters was
  uttered, the block or skill it calls started); a step that leaves no mark of its own
  (`instructions`, `noop`) when its block was entered, or its skill ran with no block
  events (a guided block);
- `forget_memory:<key>`, `wrong_enum:<field>`: the key was written, or an assertion names it;
- `ignore_digression`: a skill was interrupted, or two routable skills ran;
- `never_handoff`: a hand-off skill ran, or an assertion names one.

Of those, at most `MAX_PLAYED` are played (`pick`): first the mutants whose target the
assertions name, then the rest, each group taken one kind at a time (kinds that most often
change what a case checks first), so a case's few plays are spread over its faults.
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
    utters: set[str] = field(default_factory=set)
    actions: set[str] = field(default_factory=set)
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
        elif kind == "bot":
            path.utters.add(str((event.get("metadata") or {}).get("utter_action")))
        elif kind == "action":
            path.actions.add(str(event.get("name")))
        elif kind == "ordered_block_entered":
            path.blocks.add((str(event.get("skill_id")), str(event.get("block_id"))))
        elif kind == "memory_set":
            path.memory.add(str(event.get("key")))
        elif kind == "skill_interrupted":
            path.interrupted = True
    return path


class _MutantIndex:
    """A project's mutants by what must be on a path for each to be there: its target (a
    tool, a key, a name the assertions hold) or its skill; mutants of other kinds are
    always tried. A path then tries the mutants it can reach, not every mutant of the
    project (which made a case's cost grow with the skills)."""

    def __init__(self, mutants: list[Mutant]) -> None:
        self.mutants = mutants
        self.by_target: dict[str, list[int]] = {}
        self.by_skill: dict[str, list[int]] = {}
        self.always: list[int] = []
        for n, mutant in enumerate(mutants):
            if mutant.kind in _INDEXED and mutant.target:
                self.by_target.setdefault(mutant.target, []).append(n)
                # a skipped step is on a path through its own skill (the target's first part)
                skill = (
                    mutant.target.partition(".")[0] if mutant.kind == "skip_step" else mutant.skill
                )
                if skill:
                    self.by_skill.setdefault(skill, []).append(n)
            else:
                self.always.append(n)

    def near(self, path: CasePath) -> list[Mutant]:
        """A superset of the mutants on `path`, in the index's order."""
        found = set(self.always)
        for name in (*path.tools, *path.memory, *path.named):
            found.update(self.by_target.get(name, ()))
        for skill in path.skills:
            found.update(self.by_skill.get(skill, ()))
        return [self.mutants[n] for n in sorted(found)]


#: Kinds on a path only through their target or their skill (see `relevant`).
_INDEXED = _TOOL_KINDS | {"skip_step", "forget_memory", "wrong_enum"}
_INDEXES: dict[int, tuple[list[Mutant], _MutantIndex]] = {}


def _near(mutants: Iterable[Mutant], path: CasePath) -> Iterable[Mutant]:
    """The mutants `relevant` must try: all of a one-off iterable, or those an index of a
    kept list reaches (a project's mutants are one list, kept per loaded project)."""
    if not isinstance(mutants, list):
        return mutants
    kept = _INDEXES.get(id(mutants))
    if kept is None or kept[0] is not mutants:
        if len(_INDEXES) > 64:
            _INDEXES.clear()
        kept = _INDEXES[id(mutants)] = (mutants, _MutantIndex(mutants))
    return kept[1].near(path)


def relevant(mutants: Iterable[Mutant], path: CasePath, project: Project) -> list[Mutant]:
    """The mutants whose fault site is on `path`, in the order given."""
    skills = project.mantle.skills if project.mantle is not None else {}
    handoffs = {sid for sid, s in skills.items() if s.is_handoff}
    routable = {sid for sid, s in skills.items() if not s.hidden and not s.disabled}
    out: list[Mutant] = []
    for mutant in _near(mutants, path):
        target = mutant.target or ""
        if mutant.kind == "wrong_argument":
            hit = target in path.tools and target in path.named
        elif mutant.kind in _TOOL_KINDS:
            hit = target in path.tools or (mutant.skill in path.skills and target in path.named)
        elif mutant.kind == "skip_step":
            hit = step_on_path(target, path, project)
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


#: Mutants played per case, at most (verification must not dominate generation).
MAX_PLAYED = 8
#: Kinds in the order they are taken: the ones that most often change a checked event first.
_PRIORITY = (
    "wrong_enum",
    "skip_confirmation",
    "fail_silently",
    "skip_step",
    "forget_memory",
    "never_handoff",
    "ignore_requires",
    "drop_on_success",
    "wrong_argument",
    "ignore_digression",
)


def pick(mutants: list[Mutant], path: CasePath, limit: int = MAX_PLAYED) -> list[Mutant]:
    """Up to `limit` of `mutants` (already on the path), spread over kinds, named first."""
    named = [m for m in mutants if m.target and m.target in path.named]
    rest = [m for m in mutants if m not in named]
    order = {kind: i for i, kind in enumerate(_PRIORITY)}
    chosen: list[Mutant] = []
    for group in (named, rest):
        by_kind: dict[str, list[Mutant]] = {}
        for mutant in sorted(group, key=lambda m: order.get(m.kind, len(order))):
            by_kind.setdefault(mutant.kind, []).append(mutant)
        while any(by_kind.values()) and len(chosen) < limit:
            for queue in by_kind.values():
                if queue and len(chosen) < limit:
                    chosen.append(queue.pop(0))
    return chosen


def step_on_path(target: str, path: CasePath, project: Project) -> bool:
    """Whether the step `target` (`skill.block.step`) lies on the case's path: its skill
    ran and the step left its mark (a tool run, a key written), or, for a step that leaves
    none, its block was entered (the mutation reasons ask it of a surviving step)."""
    skill_id, _, rest = target.partition(".")
    block_id, _, step_id = rest.partition(".")
    if skill_id not in path.skills or project.mantle is None:
        return False
    skill = project.mantle.skills.get(skill_id)
    block = skill.blocks.get(block_id) if skill is not None else None
    step = next((s for s in block.steps if s.id == step_id), None) if block else None
    if step is None:
        return True
    mark = _mark(step.kind, step.target, skill_id, path)
    if mark is not None:
        return mark
    entered = {b for s, b in path.blocks if s == skill_id}
    return block_id in entered or not entered


def _mark(kind: str, target: Any, skill_id: str, path: CasePath) -> bool | None:
    """Whether a step of this kind left its mark in the run; None: it leaves none of its own."""
    if kind == "execute_tool" and isinstance(target, str):
        return target in path.tools
    if kind == "collect" and isinstance(target, str):
        return _key(target, skill_id) in path.memory
    if kind == "set_memory" and isinstance(target, dict):
        return any(_key(str(k), skill_id) in path.memory for k in target)
    if kind == "action" and isinstance(target, str):
        return target in path.utters or target in path.actions
    if kind in ("call", "link") and isinstance(target, str):
        return target in path.skills or any(b == target for _, b in path.blocks)
    return None


def _key(name: str, skill_id: str) -> str:
    return name if "." in name else f"{skill_id}.{name}"


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


__all__ = ["MAX_PLAYED", "CasePath", "pick", "read_path", "relevant"]
