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
- `no_mark`: the fault leaves nothing Mantle's assertions can observe on the cases that
  reach it (`_marks.difference`: every assertion that holds on the reference run holds
  on the mutant's, an early extra call whose marks the real call leaves again included),
  though some explored path no case takes shows it (else it is equivalent,
  `_equivalence`); without the mutant's runs, an early extra call of a tool that writes no
  memory and utters nothing;
- `outside`: every mark the fault leaves on the cases that reach it rests on what a service
  outside the agent answers, read as the drafter reads it (`answer_marks`: an outside
  call's error flag, its `on_success` response, memory written from its answer, what runs
  only once an outside write went through): a case asserts the call and its arguments,
  never the answer, so no justified assertion can catch it; the case's "If <tool>
  succeeds" criterion is left to the judge. `mutate` lists these apart (not scored, in the
  raw figures); a mutant a case kills, or one that leaves any other mark, is no such one.
  So is a site only a call the prose makes in a window of time its tool checks on the
  run's clock reaches ("During business hours … transfer the call", `clock_window_calls`):
  which side a run falls on no case pins, and the case's criterion judges that branch;
- `unexplained`: a passing case reaches the site and no proven reason applies: the suite
  could kill it (a drafting gap).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from agentflows.drafting.offline import answer_marks
from agentflows.generate.verify_paths import CasePath, read_path, step_on_path
from evalcore.agents.reference import Mutant
from evalcore.definitions import Project

from ._marks import Run, difference, observed
from ._reasons_path import TOOL_KINDS, Reason, off_path
from ._reasons_site import argument_source, no_mark, unseeded_gate

#: A run's tracker events.
Events = Sequence[Mapping[str, Any]]

REASONS = (
    "off_path",
    "needs_failure",
    "argument_from_result",
    "free_text",
    "no_mark",
    "outside",
    "unexplained",
)


@dataclass
class CaseRun:
    """One passing case's reference run: its tracker events and its assertions."""

    slug: str
    events: list[dict[str, Any]]
    checks: Any = None
    path: CasePath = field(init=False)
    _marks: Callable[[Events], list[dict[str, Any]]] | None = field(default=None, init=False)

    def __post_init__(self) -> None:
        self.path = read_path(self.events, self.checks)

    def assertable(self, project: Project, events: Events) -> list[dict[str, Any]]:
        """`events` (this run's, or a mutant's run of this case) without the marks that
        rest on an outside service's answer in this run (`answer_marks`)."""
        if self._marks is None:
            self._marks = answer_marks(project, self.events)
        return self._marks(events)


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
            # a call that runs only once an outside write went through (a rental booked on
            # the claim an outside intake filed) leaves marks on that answer alone: the
            # drafter asserts no such call, so no case could catch a wrong argument there
            return _outside_of(project, reached, played) or found
    if mutant.kind == "ignore_requires":
        found = unseeded_gate(project, mutant, reached)
        if found is None and played is None:  # no runs kept: what the definitions say
            found = no_mark(project, mutant)
        if found is not None:
            return found
    if played is not None:
        same = [r for r in reached if r.slug in played]
        known = project.mantle.memory_field if project.mantle is not None else None

        def declared(key: str) -> bool:
            return known is None or known(key) is not None

        if same and all(
            difference(Run.of(r.events), Run.of(played[r.slug]), declared) is None for r in same
        ):
            names = ", ".join(r.slug for r in same[:3]) + (" …" if len(same) > 3 else "")
            return Reason(
                "no_mark",
                f"on every verified path that reaches it ({names}) the mutant's run leaves "
                "every mark a Mantle assertion can check as a correct run does (at most an "
                "early extra call whose marks the real call leaves again, or other wording): "
                "Mantle has no assertion that a tool ran once, or not before a point",
            )
        found = _outside(project, reached, played, declared)
        if found is not None:
            return found
    names = ", ".join(r.slug for r in reached[:3]) + (" …" if len(reached) > 3 else "")
    hint = _difference(reached, played)
    return Reason("unexplained", f"reached by {names}, but no assertion there catches it{hint}")


def _outside_of(
    project: Project,
    reached: Sequence[CaseRun],
    played: Mapping[str, list[dict[str, Any]]] | None,
) -> Reason | None:
    """`_outside` with the project's declared entries, where the mutant's runs differ at
    all (a call with no arguments to alter runs the same); None where no runs were kept."""
    if played is None or any(r.slug not in played for r in reached):
        return None
    known = project.mantle.memory_field if project.mantle is not None else None

    def declared(key: str) -> bool:
        return known is None or known(key) is not None

    if all(difference(Run.of(r.events), Run.of(played[r.slug]), declared) is None for r in reached):
        return None
    return _outside(project, reached, played, declared)


def _outside(
    project: Project,
    reached: Sequence[CaseRun],
    played: Mapping[str, list[dict[str, Any]]],
    declared: Callable[[str], bool],
) -> Reason | None:
    """`outside` when the mutant's run of every case that reaches its site differs from
    the reference run only in marks that rest on an outside service's answer (with those
    left out of both runs, no Mantle assertion tells them apart); None otherwise, or when
    a reached case's mutant run was not kept."""
    if any(r.slug not in played for r in reached):
        return None
    for run in reached:
        mine = Run.of(run.assertable(project, run.events))
        theirs = Run.of(run.assertable(project, played[run.slug]))
        if difference(mine, theirs, declared) is not None:
            return None
    first = reached[0]
    seen = difference(Run.of(first.events), Run.of(played[first.slug]), declared) or ""
    names = ", ".join(r.slug for r in reached[:3]) + (" …" if len(reached) > 3 else "")
    return Reason(
        "outside",
        f"on every verified path that reaches it ({names}) its only marks rest on what an "
        f"outside service answers ({first.slug}: {seen}): a case asserts the call and its "
        "arguments, never the answer, so this is left to the case's criteria "
        '("If <tool> succeeds, ..."), which the judge reads',
    )


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
        return step_on_path(target, path, project)
    if mutant.kind in ("forget_memory", "wrong_enum"):
        return target in path.memory
    if mutant.kind == "ignore_digression":
        routable = {s for s, d in skills.items() if not d.hidden and not d.disabled}
        return path.interrupted or len(path.skills & routable) >= 2
    if mutant.kind == "never_handoff":
        return any(skills[s].is_handoff for s in path.skills if s in skills)
    return True


__all__ = ["REASONS", "CaseRun", "Reason", "explain", "explain_all"]
