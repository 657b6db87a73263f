"""`casegen report`: look at a results batch, write it as one HTML page, compare two."""

from pathlib import Path
from typing import Annotated

import typer
from rich.markup import escape

from ._app import app
from ._output import print_json, stdout


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
    from evalcore.writer import atomic_write_text

    from ..report import compare, load_batch, print_terminal, render_html, report_json

    batch = load_batch(results)
    comparison = compare(batch, load_batch(baseline)) if baseline is not None else None
    if html is not None:
        atomic_write_text(html, render_html(batch, comparison))
    if as_json:
        print_json(report_json(batch, comparison, str(html) if html else None))
    else:
        print_terminal(stdout, batch, comparison)
        if html is not None:
            stdout.print(f"report: {escape(str(html))}")
    raise typer.Exit(1 if comparison and comparison.of("regressed") else 0)
