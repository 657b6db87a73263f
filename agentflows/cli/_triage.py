"""`casegen triage`: what broke in the failed runs, one diagnosis per root cause (bucket,
evidence, fix, and the runs it explains)."""

from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer
from rich.markup import escape

from ._app import app
from ._output import print_json, stdout

if TYPE_CHECKING:
    from rich.panel import Panel

_COLOURS = {"Tool": "magenta", "Skill": "cyan", "Instruction": "yellow", "Scenario": "blue"}


#: Runs listed under one cause before "… and N more".
_RUNS_SHOWN = 8


def _panel(cause: dict[str, Any]) -> "Panel":
    from rich.panel import Panel  # start-up: rich

    turn = "?" if cause["turn"] is None else cause["turn"]
    runs = cause["runs"]
    first = runs[0]
    lines = [f"[dim]in {escape(first['slug'])} run {first['run']}:[/]"]
    for item in cause["evidence"]:
        lines.append(f"• {escape(item['text'])}")
    lines.append("")
    lines.append(f"[bold]fix:[/] {escape(cause['fix'])}")
    if len(runs) > 1:
        lines.append("")
        cases = len(cause["cases"])
        lines.append(
            f"[bold]explains {len(runs)} runs of {cases} case{'' if cases == 1 else 's'}:[/]"
        )
        for run in runs[:_RUNS_SHOWN]:
            at = "" if run["turn"] is None else f" (turn {run['turn']})"
            lines.append(f"  {escape(run['slug'])} run {run['run']}{at}")
        if len(runs) > _RUNS_SHOWN:
            lines.append(f"  … and {len(runs) - _RUNS_SHOWN} more (--json lists them)")
    lines.append(f"[dim]{cause['method']} · rule {cause['rule']} · {escape(first['file'])}[/]")
    colour = _COLOURS.get(cause["bucket"], "white")
    count = f"{len(runs)} runs" if len(runs) > 1 else f"run {first['run']}"
    title = (
        f"[bold {colour}]{cause['bucket']}[/] at turn {turn} · "
        f"[bold]{escape(cause['cause'])}[/] · {count}"
    )
    return Panel("\n".join(lines), title=title, title_align="left", border_style=colour)


@app.command()
def triage(
    results_dir: Annotated[
        Path, typer.Argument(help="A results folder: <results>, <results>/<timestamp> or a case.")
    ],
    project: Annotated[
        Path | None,
        typer.Option("--project", "-p", help="Project the cases belong to (default: found)."),
    ] = None,
    model: Annotated[
        str | None,
        typer.Option("--model", help="Model that reviews the rules' diagnoses, or 'offline'."),
    ] = None,
    no_cache: Annotated[
        bool, typer.Option("--no-cache", help="Bypass the response cache.")
    ] = False,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object.")] = False,
) -> None:
    """One diagnosis per root cause of the failed runs: the turn that broke, the bucket
    (Skill, Instruction, Scenario or Tool), the evidence, a proposed fix and the runs it
    explains (`--json`: "causes", and "failures" per run with its cause's id).

    Exit 0 (it is a report, failures included), 2 when the folder is missing or holds no run
    results.
    """
    from ..triage import triage_results  # start-up: pydantic, yaml, asyncio and 95 casegen modules

    report = triage_results(results_dir, project=project, model=model, no_cache=no_cache)
    if as_json:
        print_json(report)
        return
    for cause in report["causes"]:
        stdout.print(_panel(cause), soft_wrap=False)
    for errored in report["errored"]:
        stdout.print(
            f"[red]errored[/] {escape(errored['case'])} run {errored['run']}: "
            f"{escape(str(errored['error']))} [dim](harness failure: fix the set-up, re-run)[/]"
        )
    for warning in report["warnings"]:
        stdout.print(f"[yellow]warning:[/] {escape(warning)}")
    runs = report["runs"]
    counts = " · ".join(f"{bucket} {n}" for bucket, n in report["cause_summary"].items())
    causes = runs["causes"]
    stdout.print(
        f"{runs['failed']} failed of {runs['total']} runs ({runs['passed']} passed, "
        f"{runs['errored']} errored) · {causes} cause{'' if causes == 1 else 's'}: {counts}"
    )
