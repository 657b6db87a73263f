"""`casegen status`: which generated cases went stale since they were generated."""

from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer
from rich.markup import escape

from ._app import app
from ._output import print_json, print_table, stdout

if TYPE_CHECKING:
    from ..stale import CaseState, StatusReport

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
    only_stale: Annotated[
        bool,
        typer.Option("--stale", help="List only the stale and broken cases (what to redo)."),
    ] = False,
    show_all: Annotated[
        bool,
        typer.Option("--all", help="List the fresh cases too (the terminal lists the rest)."),
    ] = False,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object.")] = False,
) -> None:
    """Find generated cases whose definitions changed, whose ids vanished, or that were
    edited or deleted since generation. Worst first: missing, broken, stale, edited, fresh.

    Exit 0 when no case is stale or broken, 1 when some are, 2 on usage errors.
    """
    from .. import commands  # start-up: 7 casegen modules

    report = commands.status(project, manifest)
    shown = [c for c in report.cases if c.status in STALE] if only_stale else report.cases
    if as_json:
        print_json(commands.status_payload(report, only_stale=only_stale))
    else:
        listed = shown if show_all else [c for c in shown if c.status != "fresh"]
        _print(report, listed, only_stale=only_stale, fresh_hidden=len(shown) - len(listed))
    raise typer.Exit(0 if report.ok else 1)


#: What `--stale` lists: the statuses that fail `status` (exit 1) and need regenerating.
STALE = ("broken", "stale")  # as `commands.STALE`, without importing the command layer


def _print(
    report: "StatusReport", shown: "list[CaseState]", *, only_stale: bool, fresh_hidden: int = 0
) -> None:
    from rich.table import Table  # start-up: rich

    from ..stale import STATUS_ORDER  # start-up: pydantic, yaml, hashlib and 53 casegen modules

    table = Table(title=f"generated cases · {report.manifest}", title_justify="left")
    table.add_column("case", overflow="fold")
    table.add_column("status", no_wrap=True)
    table.add_column("reasons")
    for case in shown:
        colour = COLOURS[case.status]
        table.add_row(
            escape(case.path),
            f"[{colour}]{case.status}[/]",
            escape("\n".join(case.reasons)),
        )
    if shown:
        print_table(table)
    summary = report.summary
    hidden = len(report.cases) - len(shown) - fresh_hidden
    notes = ["fresh ones not listed: --all lists them"] if fresh_hidden else []
    if hidden:
        notes.append(f"{hidden} not listed: --stale shows stale and broken only")
    stdout.print(
        (
            " · ".join(f"{summary[s]} {s}" for s in STATUS_ORDER if summary[s])
            or "no generated cases in this manifest"
        )
        + (f" [dim]({'; '.join(notes)})[/]" if notes else "")
    )
    for hint in report.hints:
        stdout.print(f"[dim]hint:[/] {escape(hint)}")
