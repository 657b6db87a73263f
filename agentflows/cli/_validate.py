"""`casegen validate`: schema + reference lint for case files and folders."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from ._app import app
from ._output import print_json, print_report, stdout


@app.command()
def validate(
    paths: Annotated[list[Path], typer.Argument(help="Case files or folders (recursive).")],
    project: Annotated[
        Path | None,
        typer.Option("--project", "-p", help="Lint against this project (default: nearest)."),
    ] = None,
    dialect: Annotated[
        str | None, typer.Option("--dialect", help="mantle | anychat | base44 (default: detect).")
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object.")] = False,
) -> None:
    """Check case files against their dialect's schema and the project's real ids.

    Exit 0 when no file has an error (warnings allowed), 1 when any has, 2 on usage errors.
    """
    from evalcore.validation import summary, validate_paths

    reports = validate_paths(paths, project=project, dialect=dialect)
    totals = summary(reports)
    if as_json:
        print_json({"files": [r.to_json() for r in reports], "summary": totals})
    else:
        for report in reports:
            print_report(report)
        colour = "green" if totals["invalid"] == 0 else "red"
        stdout.print(
            f"[{colour}]{totals['valid']}/{totals['files']} files valid[/]"
            + (f", {totals['invalid']} invalid" if totals["invalid"] else "")
        )
    raise typer.Exit(1 if totals["invalid"] else 0)
