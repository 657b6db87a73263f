"""The operations that say whether a suite is any good, as the CLI and the MCP server both
run them: `score`, `mutate`, `status`, `report` and `doctor`. Each resolves its project the
same way for both (the one given, else the nearest at or above the cases), raises
`UserError` for bad input, and returns the result object with the exit code the CLI ends
with; the JSON is the object's `to_json()` (`report_payload` for `report`)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from evalcore.errors import UserError

if TYPE_CHECKING:
    from ..doctor.checks import DoctorReport
    from ..mutate import MutationReport
    from ..report import Batch, Comparison
    from ..scoring import ProjectScore
    from ..stale import StatusReport


def suite_project(paths: Sequence[Path], project: Path | None, *, kind: str = "Mantle") -> Path:
    """`project`, else the nearest project folder at or above the first path."""
    from evalcore.definitions import find_project  # start-up: yaml and 36 casegen modules

    if not paths:
        raise UserError("no case files or folders given")
    first = paths[0]
    root = project or find_project(first if first.is_dir() else first.parent)
    if root is None:
        raise UserError(f"no {kind} project folder at or above {first}", hint="pass --project DIR")
    if not root.is_dir():
        raise UserError(f"no such project folder: {root}")
    return _shown(root)


def _shown(path: Path) -> Path:
    """`path` relative to the working folder when it lies inside it: the commands it goes
    into (`casegen generate ... --project`) read as the user would type them."""
    try:
        return path.resolve().relative_to(Path.cwd().resolve()) if path.is_absolute() else path
    except ValueError:
        return path


def score(paths: Sequence[Path], project: Path | None, *, all_skills: bool = False) -> ProjectScore:
    """`casegen score`: the suite's figures against their goals."""
    from ..scoring import score_suite  # start-up: pydantic, yaml, asyncio and 101 casegen modules

    root = suite_project(paths, project)
    skills = None
    if all_skills:
        from evalcore.definitions import load_project  # start-up: yaml and 36 casegen modules

        loaded = load_project(root)
        skills = list(loaded.mantle.skills) if loaded.mantle else None
    import asyncio  # start-up: asyncio

    return asyncio.run(score_suite(list(paths), root, skills=skills))


def score_exit(result: ProjectScore, *, check: bool) -> int:
    """1 with `check` when a figure misses its goal, else 0."""
    return 1 if check and result.misses() else 0


@dataclass
class Mutation:
    """A `mutate` run: the report, the project it was played against, and its exit code."""

    report: MutationReport
    project: Path
    min_score: float

    @property
    def exit_code(self) -> int:
        return 0 if self.report.score >= self.min_score else 1

    @property
    def below_min_score(self) -> str | None:
        """Why the exit code is 1, in words (None when it is 0)."""
        if self.exit_code == 0:
            return None
        return f"mutation score {self.report.score:.2f} is below --min-score {self.min_score:g}"

    def to_json(self) -> dict[str, Any]:
        payload = self.report.to_json()
        payload["project"] = str(self.project)
        payload["min_score"] = self.min_score
        payload["below_min_score"] = self.below_min_score
        return payload


def mutate(
    paths: Sequence[Path],
    project: Path | None,
    *,
    concurrency: int = 4,
    only: list[str] | None = None,
    min_score: float = 0.0,
    on_played: Callable[[int, int], None] | None = None,
) -> Mutation:
    """`casegen mutate`: the suite against the reference agent and each mutant of it."""
    # start-up: httpx, pydantic, yaml and 164 casegen modules
    from evalcore.agents.reference import ReferenceTarget, find_mutant
    from evalcore.dialects import get_dialect  # start-up: `--help` imports this module

    # start-up: httpx, pydantic, yaml and 130 casegen modules
    from evalcore.runner import collect_cases

    # start-up: httpx, pydantic, yaml and 384 casegen modules
    from ..mutate import mutate as run_mutate

    root = suite_project(paths, project)
    cases = collect_cases(list(paths), project=root)
    # mutants are of the reference agent: only cases it plays can be scored against them
    if any(not get_dialect(c.dialect).plays_reference for c in cases):
        raise UserError("casegen mutate plays Mantle cases only", hint="pass Mantle scenarios")
    reference = ReferenceTarget(root)
    for mutant_id in only or []:
        find_mutant(reference.project, mutant_id)
    import asyncio  # start-up: asyncio

    report = asyncio.run(
        run_mutate(cases, root, concurrency=concurrency, only=only, on_played=on_played)
    )
    return Mutation(report=report, project=root, min_score=min_score)


def status(
    project: Path | None, manifest: Path | None, *, start: Path | None = None
) -> StatusReport:
    """`casegen status`: which generated cases went stale (exit 0 when `report.ok`)."""
    # start-up: pydantic, yaml, hashlib and 53 casegen modules
    from ..stale import check_manifest, find_manifest

    return check_manifest(manifest or find_manifest(start or Path.cwd()), project=project)


def status_payload(report: StatusReport, *, only_stale: bool = False) -> dict[str, Any]:
    """What `status --json` prints: the summary and the cases (`--stale`: those to redo)."""
    payload = report.to_json()
    shown = [c for c in report.cases if c.status in STALE] if only_stale else report.cases
    payload["cases"] = [c.model_dump(mode="json") for c in shown]
    return payload


#: What `--stale` lists: the statuses that fail `status` (exit 1) and need regenerating.
STALE = ("broken", "stale")


@dataclass
class Reported:
    """A `report`: the batch, the comparison with a baseline, and how the batch was found."""

    batch: Batch
    comparison: Comparison | None
    given: Path

    @property
    def exit_code(self) -> int:
        return 1 if self.comparison and self.comparison.of("regressed") else 0

    @property
    def picked(self) -> str | None:
        """Said when the folder given held several batches and the newest was taken."""
        if self.batch.dir.resolve() == self.given.resolve():
            return None
        older = self.batch.older_batches
        return (
            f"{self.given} holds {older + 1} batches; reporting the newest, "
            f"{self.batch.dir.name} (give a timestamp folder for another)"
            if older
            else None
        )

    def to_json(self, html: str | None = None) -> dict[str, Any]:
        from ..report import report_json  # start-up: httpx, pydantic, yaml and 138 casegen modules

        payload = report_json(self.batch, self.comparison, html)
        payload["older_batches"] = self.batch.older_batches
        payload["note"] = self.picked
        return payload


def report(results: Path, baseline: Path | None = None) -> Reported:
    """`casegen report`: the batch at or below `results`, compared with `baseline`."""
    # start-up: httpx, pydantic, yaml and 138 casegen modules
    from ..report import compare, load_batch

    batch = load_batch(results)
    comparison = compare(batch, load_batch(baseline)) if baseline is not None else None
    return Reported(batch=batch, comparison=comparison, given=results)


def doctor(
    model: str | None, project: Path | None, *, smoke: bool = True, start: Path | None = None
) -> DoctorReport:
    """`casegen doctor`: the model endpoint's checks (exit code: `report.exit_code`)."""
    # start-up: pydantic, asyncio, tomllib and 15 casegen modules
    from ..doctor.checks import run_doctor

    return run_doctor(model, start=start or Path.cwd(), project=project, smoke=smoke)


__all__ = [
    "STALE",
    "Mutation",
    "Reported",
    "doctor",
    "mutate",
    "report",
    "score",
    "score_exit",
    "status",
    "status_payload",
    "suite_project",
]
