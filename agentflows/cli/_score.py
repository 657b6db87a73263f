"""`casegen score`: the seven suite figures (docs/scoring.md) for a Mantle scenario suite."""

from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer
from rich.markup import escape

from ._app import app
from ._output import print_json, stdout

if TYPE_CHECKING:  # scoring loads the planner and the assertions: only when a score runs
    from rich.table import Table

    from ..scoring import ProjectScore


def format_value(key: str, value: float | None) -> str:
    """A figure as people read it: a percentage, or a count for review errors."""
    from ..scoring import FIGURES  # start-up: pydantic, yaml, asyncio and 101 casegen modules

    if value is None:
        return "n/a"
    figure = next(f for f in FIGURES if f.key == key)
    return f"{value:g}" if figure.count else f"{value:.0%}"


def score_table(score: "ProjectScore") -> "Table":
    from rich.table import Table  # start-up: rich

    from ..scoring import FIGURES  # start-up: pydantic, yaml, asyncio and 101 casegen modules

    counts = ", ".join(f"{n} {t}" for t, n in score.types.items())
    table = Table(
        title=f"{score.name} · {score.files} files ({counts})",
        title_justify="left",
    )
    for column in ("figure", "value", "of", "goal", ""):
        table.add_column(column)
    for figure in FIGURES:
        got = score.figures[figure.key]
        ok = figure.meets(got.value)
        of = "" if got.counted is None else f"{got.passed}/{got.counted}"
        table.add_row(
            figure.label + ("" if figure.higher_is_better else " (lower is better)"),
            format_value(figure.key, got.value),
            of,
            figure.goal_text(),
            "[green]✓[/]" if ok else "[red]✗[/]",
        )
    return table


@app.command()
def score(
    paths: Annotated[list[Path], typer.Argument(help="Scenario files or folders (recursive).")],
    project: Annotated[
        Path | None,
        typer.Option("--project", "-p", help="The Mantle project the suite was drafted from."),
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object.")] = False,
    check: Annotated[
        bool, typer.Option("--check", help="Exit 1 when a figure misses its goal.")
    ] = False,
    all_skills: Annotated[
        bool,
        typer.Option(
            "--all-skills", help="Count the gated tools of every skill, not only covered ones."
        ),
    ] = False,
    details: Annotated[
        bool, typer.Option("--details", help="List the files that lowered each figure.")
    ] = False,
) -> None:
    """Score a Mantle scenario suite: happy paths, refusals, decisive cases, filler,
    near-duplicates, Rasa-schema validity and review errors (see docs/scoring.md).

    Exit 0; with --check, 1 when any figure misses its goal; 2 on usage errors.
    """
    from .. import commands  # start-up: 7 casegen modules
    from ..scoring import FIGURES  # start-up: pydantic, yaml, asyncio and 101 casegen modules

    result = commands.score(paths, project, all_skills=all_skills)
    if as_json:
        print_json(result.to_json())
    else:
        stdout.print(score_table(result))
        for note in result.notes:
            stdout.print(f"[dim]note: {escape(note)}[/]")
        if details:
            for figure in FIGURES:
                missed = result.figures[figure.key].missed
                if missed:
                    stdout.print(f"[bold]{figure.label}[/]")
                    for item in missed:
                        stdout.print(f"  {escape(item)}")
    raise typer.Exit(commands.score_exit(result, check=check))
