"""Why a mutant survives a suite: a reason class derived from the definitions and the runs.

A surviving mutant is either a gap in the suite (a case could kill it and none does) or a
fault no correct case can catch. Each survivor gets one reason, proven from the project's
definitions and the reference agent's runs of the suite's passing cases, never from "no case
kills it" alone:

- `off_path`: no passing case reaches the fault's site (the tool never runs, the step's
  block never gets there, the key is never written); the reason names the condition that
  gates the site when the definitions give one (a tool's `requires`, the prose's `if:`, the
  `next` branch that leads to the step); also an early call of a tool no reached case
  calls at all whose `requires` reads a seeded project field none of them seeds (which side
  of that gate a correct agent is on is the deployment's, not the case's);
- `needs_failure`: the site lies only past a check that comes back negative or a tool that
  fails, and the project seeds no field the drafter's failing/negative test account can go
  in (a caller phone), so no case can put the backend in that state;
- `argument_from_result`: the argument the fault alters is not a value the user gave: it
  comes from another tool's result (a record the user picked from a listing included),
  a seeded entry no case seeds, or the agent's own choice, or the call has no arguments
  on the paths that reach it, so no value a case could assert for it holds for every
  correct agent;
- `free_text`: the argument the fault alters is the user's own answer, but one no agent
  passes exactly: free text or a label ("Everyday Debit ending 4821") an agent may reword or
  resolve to the record it names, or a list or object it builds (the drafter's rule of what a
  case may assert, `agentflows.drafting.offline._mantle_exact`); `arguments` compare by
  equality, so no value holds for every correct agent;
- `no_mark`: the fault changes nothing Mantle's assertions can observe on the paths that
  reach it: the mutant's own runs of those cases record the same skills, blocks, memory,
  tool calls and responses as the reference agent's (only the wording of a turn differs),
  or it is an early extra call of a tool that writes no memory and utters nothing (Mantle
  has no "tool not called" assertion);
- `unexplained`: a passing case reaches the site and no proven reason applies: the suite
  could kill it (a drafting gap).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from agentflows.generate._verify_paths import CasePath, _step_on_path, read_path
from evalcore.agents.reference import Mutant
from evalcore.definitions import Project

from ._reasons_path import TOOL_KINDS, Reason, off_path
from ._reasons_site import argument_source, no_mark, unseeded_gate

REASONS = (
    "off_path",
    "needs_failure",
    "argument_from_result",
    "free_text",
    "no_mark",
    "unexplained",
)


@dataclass
class CaseRun:
    """One passing case's reference run: its tracker events and its assertions."""

    slug: str
    events: list[dict[str, Any]]
    checks: Any = None
    path: CasePath = field(init=False)

    def __post_init__(self) -> None:
        self.path = read_path(self.events, self.checks)


def explain(
    project: Project,
    mutant: Mutant,
    runs: Sequence[CaseRun],
    played: Mapping[str, list[dict[str, Any]]] | None = None,
) -> Reason:
    """The reason `mutant` survives the suite whose passing cases played `runs` (`played`:
    the mutant's own run of each case, slug -> events, when kept)."""
    reached = [r for r in runs if _reaches(project, mutant, r.path)]
    if not reached:
        return off_path(project, mutant)
    if mutant.kind == "wrong_argument":
        found = argument_source(project, mutant, reached)
        if found is not None:
            return found
    if mutant.kind == "ignore_requires":
        found = no_mark(project, mutant) or unseeded_gate(project, mutant, reached)
        if found is not None:
            return found
    if played is not None and mutant.kind == "ignore_requires":
        found = _early_repeat(project, mutant, reached, played)
        if found is not None:
            return found
    if played is not None:
        same = [r for r in reached if r.slug in played]
        if same and all(observed(r.events) == observed(played[r.slug]) for r in same):
            names = ", ".join(r.slug for r in same[:3]) + (" …" if len(same) > 3 else "")
            return Reason(
                "no_mark",
                f"on every verified path that reaches it ({names}) it records the same "
                "skills, blocks, memory, tool calls and responses as a correct agent: only "
                "the wording of a turn can differ, which no assertion pins",
            )
    names = ", ".join(r.slug for r in reached[:3]) + (" …" if len(reached) > 3 else "")
    hint = _difference(reached, played)
    return Reason("unexplained", f"reached by {names}, but no assertion there catches it{hint}")


def _difference(
    reached: Sequence[CaseRun], played: Mapping[str, list[dict[str, Any]]] | None
) -> str:
    """Where the mutant's run of a reached case first differs from the reference run."""
    for run in reached:
        if played is None or run.slug not in played:
            continue
        mine, theirs = observed(run.events), observed(played[run.slug])
        for index, (a, b) in enumerate(zip(mine, theirs, strict=False)):
            if a != b:
                return f" ({run.slug}: the agent records {_say(a)}, the mutant {_say(b)})"
            if index == len(mine) - 1 and len(theirs) > len(mine):
                break
        if len(mine) != len(theirs):
            longer, who = (mine, "the agent") if len(mine) > len(theirs) else (theirs, "the mutant")
            extra = longer[min(len(mine), len(theirs))]
            return f" ({run.slug}: only {who} records {_say(extra)})"
    return ""


def _early_repeat(
    project: Project,
    mutant: Mutant,
    reached: Sequence[CaseRun],
    played: Mapping[str, list[dict[str, Any]]],
) -> Reason | None:
    """`no_mark` when, on every reached path, the mutant's run is the correct one plus its
    early call (the call and the memory and messages it leaves right after it): the real call
    later leaves the same marks, so `tool_executed`, `memory_was_set` / `_not_set` and
    `bot_uttered` find them either way and `sequencing` (earliest match, gaps allowed) only
    gains an earlier match. `tools_within_one_turn` could tell, but only in a turn with two
    other calls; no reached run has one where the early call lands."""
    same = [r for r in reached if r.slug in played]
    defs = project.mantle
    skill = defs.skills.get(mutant.skill or "") if defs is not None else None
    constraint = skill.tool_constraints.get(mutant.target or "") if skill is not None else None
    said = {constraint.on_success, constraint.on_failure} - {None} if constraint else set()
    if not same:
        return None
    for run in same:
        mine = played[run.slug]
        start = next(
            (
                i
                for i, e in enumerate(mine)
                if e.get("event") == "tool_executed" and e.get("tool_name") == mutant.target
            ),
            None,
        )
        if start is None:
            return None
        end = start + 1
        while end < len(mine) and (
            mine[end].get("event") == "memory_set"
            or (mine[end].get("event") == "bot" and _utter(mine[end]) in said)
        ):
            end += 1
        if observed(mine[:start] + mine[end:]) != observed(run.events):
            return None
        if _calls_in_turn(mine, start) > 2:
            return None
    names = ", ".join(r.slug for r in same[:3]) + (" …" if len(same) > 3 else "")
    return Reason(
        "no_mark",
        f"on every verified path that reaches it ({names}) the early call of {mutant.target} "
        "leaves only marks its real call leaves again later (Mantle has no assertion that a "
        "tool ran once, or not before a point)",
    )


def _utter(event: Mapping[str, Any]) -> Any:
    return (event.get("metadata") or {}).get("utter_action")


def _calls_in_turn(events: Sequence[dict[str, Any]], index: int) -> int:
    """Tool calls in the user turn that holds `events[index]`."""
    begin = max((i for i in range(index) if events[i].get("event") == "user"), default=0)
    end = next(
        (i for i in range(index, len(events)) if events[i].get("event") == "user"), len(events)
    )
    return sum(1 for e in events[begin:end] if e.get("event") == "tool_executed")


def _say(item: tuple[Any, ...]) -> str:
    return " ".join(str(part) for part in item if part not in (None, "{}"))


def explain_all(
    project: Project,
    survivors: Iterable[Mutant],
    runs: Sequence[CaseRun],
    played: Mapping[str, Mapping[str, list[dict[str, Any]]]] | None = None,
) -> dict[str, Reason]:
    return {
        m.id: explain(project, m, runs, None if played is None else played.get(m.id))
        for m in survivors
    }


def observed(events: Sequence[dict[str, Any]]) -> list[tuple[Any, ...]]:
    """What Mantle's assertions can check of a run, in order: skill and block lifecycle,
    memory writes with their values, tool calls (arguments, error, source) and the
    responses uttered by name (reference §2.1)."""
    out: list[tuple[Any, ...]] = []
    for event in events:
        kind = event.get("event")
        if kind == "memory_set":
            out.append((kind, event.get("key"), repr(event.get("value"))))
        elif kind == "tool_executed":
            arguments = json.dumps(event.get("arguments") or {}, sort_keys=True, default=repr)
            out.append((kind, event.get("tool_name"), arguments, event.get("is_error")))
        elif kind == "bot":
            out.append((kind, (event.get("metadata") or {}).get("utter_action")))
        elif isinstance(kind, str) and kind.startswith(("skill_", "ordered_block_")):
            out.append((kind, event.get("skill_id"), event.get("block_id"), event.get("step_id")))
    return out


# --- is the site on a path? -----------------------------------------------------------------


def _reaches(project: Project, mutant: Mutant, path: CasePath) -> bool:
    target = mutant.target or ""
    defs = project.mantle
    skills = defs.skills if defs is not None else {}
    if mutant.kind == "ignore_requires":  # the mutant runs it as its skill starts
        return mutant.skill in path.skills
    if mutant.kind in TOOL_KINDS:
        return target in path.tools
    if mutant.kind == "skip_step":
        return _step_on_path(target, path, project)
    if mutant.kind in ("forget_memory", "wrong_enum"):
        return target in path.memory
    if mutant.kind == "ignore_digression":
        routable = {s for s, d in skills.items() if not d.hidden and not d.disabled}
        return path.interrupted or len(path.skills & routable) >= 2
    if mutant.kind == "never_handoff":
        return any(skills[s].is_handoff for s in path.skills if s in skills)
    return True


__all__ = ["REASONS", "CaseRun", "Reason", "explain", "explain_all"]
