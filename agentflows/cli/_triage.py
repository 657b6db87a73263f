"""`casegen triage`: what broke in each failed run, in which bucket, and what to fix."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer
from rich.markup import escape
from rich.panel import Panel

from ._app import app
from ._output import print_json, stdout

_COLOURS = {"Tool": "magenta", "Skill": "cyan", "Instruction": "yellow", "Scenario": "blue"}


def _panel(failure: dict[str, Any]) -> Panel:
    turn = "?" if failure["turn"] is None else failure["turn"]
    lines = []
    for item in failure["evidence"]:
        lines.append(f"• {escape(item['text'])}")
    lines.append("")
    lines.append(f"[bold]fix:[/] {escape(failure['fix'])}")
    lines.append(f"[dim]{failure['method']} · rule {failure['rule']} · {failure['file']}[/]")
    colour = _COLOURS.get(failure["bucket"], "white")
    title = (
        f"[bold {colour}]{failure['bucket']}[/] at turn {turn} · "
        f"[bold]{escape(failure['case'])}[/] · run {failure['run']}"
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
    """For each failed run: the turn that broke, the bucket (Skill, Instruction, Scenario or
    Tool), the evidence and a proposed fix.

    Exit 0 (it is a report, failures included), 2 when the folder is missing or holds no run
    results.
    """
    from ..triage import triage_results

    report = triage_results(results_dir, project=project, model=model, no_cache=no_cache)
    if as_json:
        print_json(report)
        return
    for failure in report["failures"]:
        stdout.print(_panel(failure), soft_wrap=False)
    for errored in report["errored"]:
        stdout.print(
            f"[red]errored[/] {escape(errored['case'])} run {errored['run']}: "
            f"{escape(str(errored['error']))} [dim](harness failure: fix the set-up, re-run)[/]"
        )
    for warning in report["warnings"]:
        stdout.print(f"[yellow]warning:[/] {escape(warning)}")
    runs = report["runs"]
    counts = " · ".join(f"{bucket} {n}" for bucket, n in report["summary"].items())
    stdout.print(
        f"{runs['failed']} failed of {runs['total']} runs ({runs['passed']} passed, "
        f"{runs['errored']} errored) · {counts}"
    )
