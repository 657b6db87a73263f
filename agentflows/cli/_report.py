"""`casegen report`: look at a results batch, write it as one HTML page, compare two."""

from pathlib import Path
from typing import Annotated

import typer
from rich.markup import escape

from ._app import app
from ._output import print_json, stderr, stdout


@app.command()
def report(
    results: Annotated[
        Path,
        typer.Argument(help="A results folder: <results>/<timestamp> or <results> (the newest)."),
    ],
    html: Annotated[
        Path | None,
        typer.Option("--html", help="Write the report as one self-contained HTML file here."),
    ] = None,
    baseline: Annotated[
        Path | None,
        typer.Option(
            "--compare", help="A baseline results folder: list regressions and fixes against it."
        ),
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object.")] = False,
) -> None:
    """The batch summary, the cases not passing and, with --compare, what regressed and
    what was fixed since the baseline; --html adds a page with every transcript and each
    assertion and criterion verdict at the turn it refers to.

    Exit 0, 1 when --compare finds a regression, 2 when a folder is missing or holds no
    results.
    """
    from evalcore.writer import atomic_write_text  # start-up: yaml and 10 casegen modules

    from .. import commands  # start-up: 7 casegen modules

    # start-up: httpx, pydantic, yaml and 138 casegen modules
    from ..report import print_terminal, render_html

    reported = commands.report(results, baseline)
    batch, comparison = reported.batch, reported.comparison
    if html is not None:
        atomic_write_text(html, render_html(batch, comparison))
    if as_json:
        print_json(reported.to_json(str(html) if html else None))
    else:
        if reported.picked:
            stderr.print(f"[dim]note:[/] {escape(reported.picked)}", highlight=False)
        print_terminal(stdout, batch, comparison)
        if html is not None:
            stdout.print(f"report: {escape(str(html))}")
    raise typer.Exit(reported.exit_code)
