"""`casegen doctor`: check the configured model endpoint before a run depends on it."""

from pathlib import Path
from typing import Annotated

import typer
from rich.markup import escape

from ._app import app
from ._output import print_json, stdout

_COLOUR = {"ok": "green", "warn": "yellow", "fail": "red", "skip": "dim"}


@app.command()
def doctor(
    project: Annotated[
        Path | None,
        typer.Option("--project", "-p", help="Project for settings and the smoke draft."),
    ] = None,
    model: Annotated[str | None, typer.Option("--model", help="Model name to check.")] = None,
    no_smoke: Annotated[
        bool, typer.Option("--no-smoke", help="Skip the one-call smoke draft.")
    ] = False,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object.")] = False,
) -> None:
    """Check the model endpoint: reachable, key taken, model listed, structured output,
    context size, one smoke draft; then print what casegen will use.

    Exit 0 when every check passed (warnings allowed) or no model is configured, 1 when a
    check failed (no usable structured output, the smoke draft invalid), 3 when the
    endpoint is unreachable or refuses the key, 2 on usage errors.
    """
    from rich.table import Table  # start-up: rich

    from .. import commands  # start-up: 7 casegen modules

    report = commands.doctor(model, project, smoke=not no_smoke)
    if as_json:
        print_json(report.to_json())
        raise typer.Exit(report.exit_code)
    table = Table(title="casegen doctor", title_justify="left")
    for name in ("check", "status", "detail"):
        table.add_column(name, overflow="fold")
    for check in report.checks:
        colour = _COLOUR[check.status]
        table.add_row(check.name, f"[{colour}]{check.status}[/]", escape(check.detail))
    stdout.print(table)
    stdout.print("casegen will use:")
    for key, value in report.uses.items():
        if value is not None:
            stdout.print(f"  {key}: {escape(str(value))}", highlight=False)
    raise typer.Exit(report.exit_code)


__all__ = ["doctor"]
