"""`casegen status`: which generated cases went stale since they were generated."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer
from rich.markup import escape
from rich.table import Table

from ._app import app
from ._output import print_json, stdout

if TYPE_CHECKING:
    from ..stale import StatusReport

COLOURS = {
    "fresh": "green",
    "stale": "yellow",
    "broken": "red",
    "edited": "cyan",
    "missing": "magenta",
}


@app.command()
def status(
    project: Annotated[
        Path | None,
        typer.Option("--project", "-p", help="Only the cases generated from this project."),
    ] = None,
    manifest: Annotated[
        Path | None,
        typer.Option(
            "--manifest", help="Manifest (default: generated_cases/manifest.json here or above)."
        ),
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object.")] = False,
) -> None:
    """Find generated cases whose definitions changed, whose ids vanished, or that were
    edited or deleted since generation.

    Exit 0 when no case is stale or broken, 1 when some are, 2 on usage errors.
    """
    from ..stale import check_manifest, find_manifest

    report = check_manifest(manifest or find_manifest(Path.cwd()), project=project)
    if as_json:
        print_json(report.to_json())
    else:
        _print(report)
    raise typer.Exit(0 if report.ok else 1)


def _print(report: StatusReport) -> None:
    from ..stale import STATUS_ORDER

    table = Table(title=f"generated cases · {report.manifest}")
    table.add_column("case", overflow="fold")
    table.add_column("status", no_wrap=True)
    table.add_column("reasons", overflow="fold")
    for case in report.cases:
        colour = COLOURS[case.status]
        table.add_row(
            escape(case.path),
            f"[{colour}]{case.status}[/]",
            escape("\n".join(case.reasons)),
        )
    stdout.print(table)
    summary = report.summary
    stdout.print(
        " · ".join(f"{summary[s]} {s}" for s in STATUS_ORDER if summary[s])
        or "no generated cases in this manifest"
    )
    for hint in report.hints:
        stdout.print(f"[dim]hint:[/] {escape(hint)}")
