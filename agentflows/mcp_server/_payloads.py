"""The JSON each tool returns, built by the same functions the CLI commands call.

Each function returns `(payload, is_error)`, where `is_error` is what the CLI's non-zero
exit code says (invalid files, failed runs). Where a CLI command assembles its `--json`
object inline, the assembly is repeated here in a few lines that call the same functions,
so nothing that decides an outcome is duplicated.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from importlib import import_module
from pathlib import Path
from typing import Any

from ..commands import repair_payload, resolve_project, run_settings, sources_payload
from ._results import Unavailable

Payload = tuple[dict[str, Any], bool]


def sources(project: Path | None) -> Payload:
    """`casegen sources --json`."""
    return sources_payload(resolve_project(project)), False


def validate(paths: Sequence[Path], project: Path | None, dialect: str | None) -> Payload:
    """`casegen validate --json`; an error when any file has an error finding."""
    validation = _validation()
    reports = validation.validate_paths(paths, project=project, dialect=dialect)
    totals = validation.summary(reports)
    return {"files": [r.to_json() for r in reports], "summary": totals}, totals["invalid"] > 0


def _validation() -> Any:
    """`evalcore.validation`, imported by the first `validate_cases` call: it loads
    `evalcore.definitions`, the biggest part of casegen's own cost in a server's first start,
    which answers `initialize` and `tools/list` without it."""
    return import_module("evalcore.validation")


def repair(
    paths: Sequence[Path], project: Path | None, dialect: str | None, dry_run: bool
) -> Payload:
    """`casegen repair --json`; an error when a file stays invalid."""
    payload = repair_payload(list(paths), project=project, dialect=dialect, dry_run=dry_run)
    return payload, payload["summary"]["invalid"] > 0


# --- features that may not be installed -------------------------------------------------


async def run(
    paths: Sequence[Path],
    *,
    target: str,
    runs: int | None,
    project: Path | None,
    model: str | None,
    results: Path | None,
    on_planned: Callable[[int], None],
    on_run: Callable[[Any], None],
) -> Payload:
    """`casegen run --json`; an error when a run failed or errored."""
    try:
        from evalcore.runner import (
            ResultsWriter,
            RunOptions,
            cases_project,
            collect_cases,
            default_results_dir,
            resolve_target,
            run_cases,
        )  # start-up: httpx, rich, pygments and 85 casegen modules
    except ImportError as exc:
        raise Unavailable("run_cases", f"the case runner cannot be imported: {exc}") from None
    cases = collect_cases(list(paths), project=project)
    agent = resolve_target(target, project=cases_project(cases, project=project))
    start = project or Path(cases[0].path).parent
    simulator, judge = run_settings(model, None, 1, start, False)
    options = RunOptions(runs=runs, simulator=simulator, judge=judge).with_models()
    on_planned(sum(options.runs_for(case) for case in cases))
    writer = ResultsWriter(results or default_results_dir(cases, project=project))
    report = await run_cases(cases, agent, options, results=writer, on_run=on_run)
    return report.to_json(), report.exit_code != 0


async def review(
    paths: Sequence[Path],
    *,
    project: Path | None,
    model: str | None,
    dialect: str | None,
    revise: bool = False,
) -> Payload:
    """`casegen review --json` (`--revise`); an error when a comment is an error."""
    try:
        from ..review import review_model, review_paths  # start-up: tomllib and 154 casegen modules
    except ImportError as exc:
        raise Unavailable("review_cases", f"case review cannot be imported: {exc}") from None
    start = project or (paths[0] if paths else None)
    critic = review_model(model, start=start)
    report = await review_paths(
        list(paths), project=project, dialect=dialect, critic=critic, revise=revise
    )
    payload = report.to_json()
    if critic is None:
        payload["note"] = "deterministic rules only"
    return payload, bool(report.failed)


async def triage(results_dir: Path, *, project: Path | None, model: str | None) -> Payload:
    """`casegen triage --json` (a report: never an error for failed runs)."""
    try:
        from ..triage import triage_results_async  # start-up: 52 casegen modules
    except ImportError as exc:
        raise Unavailable("triage_results", f"triage cannot be imported: {exc}") from None
    return await triage_results_async(results_dir, project=project, model=model), False


__all__ = ["Payload", "repair", "review", "run", "sources", "triage", "validate"]
