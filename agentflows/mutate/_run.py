"""Run a suite against the reference agent and every mutant, and read off the kill matrix."""

from __future__ import annotations

import asyncio
import shlex
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from agentflows.planning import explore_mantle
from evalcore.agents.reference import Mutant, ReferenceTarget, mutants
from evalcore.runner import RunCase, RunOptions, run_cases
from evalcore.simulator import SimulatorSettings

from ._equivalence import equivalent_mutants
from ._reasons import CaseRun, Reason, explain_all


@dataclass
class MutantResult:
    mutant: Mutant
    killed_by: list[str] = field(default_factory=list)

    @property
    def killed(self) -> bool:
        return bool(self.killed_by)


@dataclass
class MutationReport:
    project: str
    cases: list[str]
    reference: dict[str, str]
    """Case slug -> its status against the reference agent (passed / failed / errored)."""
    results: list[MutantResult]
    """The mutants that can behave differently (played, counted in the score)."""
    notes: dict[str, list[str]] = field(default_factory=dict)
    """Case slug -> the reference agent's notes (what the run depended on but was unsure of)."""
    equivalent: list[Mutant] = field(default_factory=list)
    """Mutants no correct conversation tells from the reference agent, each saying why in
    `equivalent`: the definitions prove it (not played), or the planner's explored paths
    do (`_equivalence`; played all the same, and a mutant a case kills applies whatever
    the paths said). Not in the score; in the raw figures."""
    explored: set[str] = field(default_factory=set)
    """Ids of the equivalent mutants the explored paths proved (the others: the definitions)."""
    reasons: dict[str, Reason] = field(default_factory=dict)
    """Surviving mutant id -> why it survives (`_reasons`: off_path, needs_failure,
    argument_from_result, free_text, no_mark, or unexplained; `outside` for those of
    `outside`)."""
    outside: list[MutantResult] = field(default_factory=list)
    """Survivors whose only marks on the runs that reach them rest on what an outside
    service answers (`_reasons`, reason `outside`): a case asserts the call, never the
    answer, so they are left to the cases' criteria. Played, not in the score; in the raw
    figures."""

    @property
    def score(self) -> float:
        """Killed over the mutants that apply (equivalent ones cannot be killed, nor can
        a justified assertion kill those of `outside`)."""
        return self.killed / len(self.results) if self.results else 1.0

    @property
    def killed(self) -> int:
        return sum(r.killed for r in self.results)

    @property
    def raw_total(self) -> int:
        """Every mutant derived from the project, equivalent and outside ones included."""
        return len(self.results) + len(self.equivalent) + len(self.outside)

    @property
    def raw_score(self) -> float:
        return self.killed / self.raw_total if self.raw_total else 1.0

    def survivors(self) -> list[MutantResult]:
        return [r for r in self.results if not r.killed]

    def reason(self, result: MutantResult) -> Reason:
        return self.reasons.get(result.mutant.id) or Reason("unexplained", "not classified")

    def suggestion(self, result: MutantResult) -> str:
        skill = result.mutant.skill or "all"
        direction = f"a case that fails when the agent {result.mutant.behaviour}"
        return (
            f"casegen generate {skill} --project {shlex.quote(self.project)} "
            f"--direction {shlex.quote(direction)}"
        )

    def to_json(self) -> dict[str, Any]:
        return {
            "project": self.project,
            "cases": self.cases,
            "reference": self.reference,
            "reference_notes": self.notes,
            "mutants": len(self.results),
            "killed": self.killed,
            "score": round(self.score, 4),
            "raw": {
                "mutants": self.raw_total,
                "killed": self.killed,
                "score": round(self.raw_score, 4),
            },
            "equivalent": [
                {
                    "id": m.id,
                    "behaviour": m.behaviour,
                    "reason": m.equivalent,
                    "proof": "explored paths" if m.id in self.explored else "definitions",
                }
                for m in self.equivalent
            ],
            "outside": [
                {"id": r.mutant.id, "behaviour": r.mutant.behaviour, "reason": self.reason(r).text}
                for r in self.outside
            ],
            "matrix": {r.mutant.id: r.killed_by for r in self.results},
            "survivors": [
                {
                    "id": r.mutant.id,
                    "behaviour": r.mutant.behaviour,
                    **self.reason(r).to_json(),
                    "suggestion": self.suggestion(r),
                }
                for r in self.survivors()
            ],
        }


async def _statuses(
    cases: list[RunCase], target: ReferenceTarget, options: RunOptions
) -> tuple[dict[str, str], dict[str, list[str]], dict[str, list[dict[str, Any]]]]:
    report = await run_cases(cases, target, options)
    statuses = {r.scenario_slug: r.status for r in report.records}
    notes = {r.scenario_slug: list(r.meta.get("notes") or []) for r in report.records}
    events = {r.scenario_slug: list(r.events) for r in report.records}
    return statuses, notes, events


async def mutate(
    cases: list[RunCase],
    project: Path,
    *,
    concurrency: int = 4,
    only: list[str] | None = None,
    on_played: Callable[[int, int], None] | None = None,
) -> MutationReport:
    """Play `cases` against the reference agent and each mutant, `concurrency` at once;
    `on_played(done, total)` after the reference run (0) and after each mutant."""
    reference = ReferenceTarget(project)
    # the offline user hears the project's own questions and read-backs, as in `casegen run`
    simulator = SimulatorSettings(project=reference.project)
    options = RunOptions(parallel=4, simulator=simulator).with_models()
    statuses, notes, events = await _statuses(cases, reference, options)
    passing = [c for c in cases if statuses.get(c.slug) == "passed"]
    derived = [m for m in mutants(reference.project) if only is None or m.id in only]
    chosen = [m for m in derived if m.equivalent is None]
    equivalent = [m for m in derived if m.equivalent is not None]
    proven = equivalent_mutants(reference.project, chosen, explore_mantle(reference.project))
    gate = asyncio.Semaphore(concurrency)
    total = len(chosen) if passing else 0
    done = 0
    if on_played is not None:
        on_played(0, total)

    played: dict[str, dict[str, list[dict[str, Any]]]] = {}

    async def one(mutant: Mutant) -> MutantResult:
        async with gate:
            target = ReferenceTarget(project, mutant=mutant)
            broken, _, seen = await _statuses(passing, target, options)
        result = MutantResult(mutant, sorted(s for s, st in broken.items() if st != "passed"))
        if not result.killed:  # kept to tell why it survives
            played[mutant.id] = seen
        nonlocal done
        done += 1
        if on_played is not None:
            on_played(done, total)
        return result

    results = (
        list(await asyncio.gather(*(one(m) for m in chosen)))
        if passing
        else [MutantResult(m) for m in chosen]
    )
    # a killed mutant applies whatever the explored paths said (a case found a difference)
    unkillable = [r for r in results if r.mutant.id in proven and not r.killed]
    results = [r for r in results if r not in unkillable]
    equivalent += [replace(r.mutant, equivalent=proven[r.mutant.id]) for r in unkillable]
    runs = [CaseRun(c.slug, events.get(c.slug, []), c.checks) for c in passing]
    survivors = [r.mutant for r in results if not r.killed]
    reasons = explain_all(reference.project, survivors, runs, played)
    # only a justified assertion's miss counts: what rests on an outside answer is the judge's
    outside = [r for r in results if not r.killed and reasons[r.mutant.id].code == "outside"]
    results = [r for r in results if r not in outside]
    return MutationReport(
        str(project),
        [c.slug for c in cases],
        statuses,
        results,
        notes=notes,
        equivalent=equivalent,
        explored={r.mutant.id for r in unkillable},
        reasons=reasons,
        outside=outside,
    )
