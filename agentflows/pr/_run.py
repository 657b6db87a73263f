"""`--run TARGET`: run the freshly drafted cases before anyone reviews them.

The cases run from the temporary worktree through the shared runner (`evalcore.runner`),
exactly as `casegen run FILES --target TARGET` would run them: `--model` (else the
configured simulator and judge models, else offline) plays the user and judges. Run files
go to `.casegen/pr/<branch>-runs/` so failures can be triaged after the worktree is gone.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from evalcore.errors import UserError
from evalcore.llm import resolve_model_config

if TYPE_CHECKING:
    from evalcore.definitions import Project
    from evalcore.runner import RunRecord


@dataclass(frozen=True)
class RunRow:
    path: str
    status: str
    """`passed`, `failed` or `errored` (harness trouble, not the agent's fault)."""
    detail: str | None = None
    judged: bool = True
    """Whether a judge model graded the criteria (False: a pass covers assertions only)."""
    simulator: str = "offline"
    """The simulated user's engine: `offline` (facts or quoted lines) or `llm:<model>`."""


@dataclass
class RunOutcome:
    target: str
    rows: list[RunRow] = field(default_factory=list)
    results_dir: str | None = None
    note: str | None = None
    """Why the cases were not run (an invalid case, an unusable model), when they were not."""


def check_run_target(spec: str, project: Project) -> None:
    """Resolve the target once before anything is written, so a typo fails early."""
    # start-up: httpx, pydantic, rich and 72 casegen modules
    from evalcore.runner import resolve_target

    resolve_target(spec, project=project)


def run_new_cases(
    paths: list[Path],
    *,
    target: str,
    project: Path,
    model: str | None,
    results_dir: Path,
    display: Callable[[str], str],
) -> RunOutcome:
    """Run `paths` against `target`; one row per run, named as `display` says.

    A problem that stops the whole run (an invalid case, a model without a key) becomes the
    outcome's `note`: the branch and its commit are already made and stay useful.
    """
    from evalcore.judge import JudgeSettings  # start-up: 24 casegen modules
    from evalcore.runner import (
        ResultsWriter,
        RunOptions,
        cases_project,
        collect_cases,
        resolve_target,
        run_cases,
    )  # start-up: httpx, pydantic, rich and 72 casegen modules
    from evalcore.simulator import SimulatorSettings  # start-up: 16 casegen modules

    outcome = RunOutcome(target=target)
    try:
        cases = collect_cases(paths, project=project)
        agent = resolve_target(target, project=cases_project(cases, project=project))
        options = RunOptions(
            simulator=SimulatorSettings(
                model=resolve_model_config(model, start=project, role="simulator")
            ),
            judge=JudgeSettings(model=resolve_model_config(model, start=project, role="judge")),
        )
        writer = ResultsWriter(results_dir)
        report = asyncio.run(run_cases(cases, agent, options, results=writer))
    except UserError as exc:
        outcome.note = exc.message
        return outcome
    outcome.results_dir = str(writer.dir)
    for record in report.records:
        outcome.rows.append(
            RunRow(
                display(record.case_path),
                record.status,
                _detail(record),
                judged=bool(record.judged),
                simulator=str(record.simulator.engine),
            )
        )
    return outcome


def _detail(record: RunRecord) -> str | None:
    """The first reason a run did not pass: harness error, assertion, then criterion."""
    if record.error:
        return record.error
    for assertion in record.assertions:
        if not assertion["passed"]:
            return f"assertion {assertion['type']}: {assertion['detail']}"
    for criterion in record.criteria:
        if criterion.verdict in ("fail", "inconclusive"):
            return f"criterion {criterion.verdict}: {criterion.criterion}"
    return None
