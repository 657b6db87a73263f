"""`casegen mutate`: a Mantle suite against the reference agent and each of its mutants.

By default a short summary: whether the reference agent passes the suite, the mutation
score over the mutants that apply (and the raw one over all), the first equivalent mutants
with why no correct conversation tells them apart, and the first surviving mutants with why
they survive and the direction to try; `--details` adds the kill matrix, every survivor and
every equivalent mutant. Progress goes
to stderr while the mutants are played.

Exit codes: 0 the mutation score reaches `--min-score` (default 0: always) · 1 it does not
(said on stderr) · 2 usage errors (bad paths, invalid cases, not a Mantle project, unknown
mutant id).
"""

from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer
from rich.markup import escape

from ._app import app
from ._output import print_json, print_table, stderr, stdout

if TYPE_CHECKING:  # the runner and the reference agent load when the command runs, not
    from agentflows.mutate import MutationReport  # for `casegen --help`

#: Survivors the short summary shows; `--details` shows all.
SHOWN = 5


def _print(report: "MutationReport", *, details: bool) -> None:
    passed = sum(s == "passed" for s in report.reference.values())
    stdout.print(
        f"reference agent: {passed}/{len(report.reference)} cases pass "
        f"(a case it fails cannot kill a mutant)"
    )
    for slug, status in sorted(report.reference.items()):
        if status != "passed":
            stdout.print(f"  [yellow]{status}[/] {escape(slug)}")
    if details:
        _print_matrix(report)
    killed = report.killed
    stdout.print(
        f"mutation score: {killed}/{len(report.results)} = {report.score:.0%} of the mutants "
        f"that apply (raw {killed}/{report.raw_total} = {report.raw_score:.0%}"
        + (
            f"; {len(report.equivalent)} equivalent: no correct conversation tells them "
            "apart, not counted)"
            if report.equivalent
            else ")"
        )
    )
    if report.outside:
        stdout.print(
            f"  {len(report.outside)} outside: their only marks rest on what an outside "
            "service answers or the run's clock decides; left to the cases' criteria, not "
            "counted"
        )
    shown_outside = report.outside if details else report.outside[:SHOWN]
    for result in shown_outside:
        stdout.print(
            f"  [dim]outside[/] {escape(result.mutant.id)}: {escape(report.reason(result).text)}"
        )
    if len(shown_outside) < len(report.outside):
        stdout.print(f"  [dim]{len(report.outside) - len(shown_outside)} more outside[/]")
    shown = report.equivalent if details else report.equivalent[:SHOWN]
    for mutant in shown:
        stdout.print(f"  [dim]equivalent[/] {escape(mutant.id)}: {escape(mutant.equivalent or '')}")
    if len(shown) < len(report.equivalent):
        stdout.print(f"  [dim]{len(report.equivalent) - len(shown)} more equivalent[/]")
    survivors = report.survivors()
    for result in survivors if details else survivors[:SHOWN]:
        reason = report.reason(result)
        stdout.print(
            f"[red]survives[/] {escape(result.mutant.id)}: the agent "
            f"{escape(result.mutant.behaviour)}"
        )
        stdout.print(f"  why ({reason.code}): {escape(reason.text)}")
        stdout.print(f"  try: {escape(report.suggestion(result))}")
    hidden = 0 if details else max(0, len(survivors) - SHOWN)
    if not details and report.results:
        more = f"{hidden} more survivors; " if hidden else ""
        stdout.print(f"[dim]{more}--details prints the kill matrix and every survivor[/]")


def _print_matrix(report: "MutationReport") -> None:
    from rich.table import Table  # start-up: rich

    table = Table(title="kill matrix", title_justify="left")
    table.add_column("mutant", overflow="fold")
    table.add_column("killed by")
    for result in report.results:
        killers = ", ".join(result.killed_by[:3]) + (" …" if len(result.killed_by) > 3 else "")
        table.add_row(escape(result.mutant.id), escape(killers) if killers else "[red]survives[/]")
    print_table(table)


class _Progress:
    """`played N/M mutants` on stderr: a live line in a terminal, else one line at the start
    and one at the end (a CI log is not flooded)."""

    def __init__(self) -> None:
        self.live = stderr.is_terminal
        self.status = None
        self.total = 0

    def __call__(self, done: int, total: int) -> None:
        self.total = total
        text = (
            "playing the suite against the reference agent"
            if done == 0 and total
            else f"played {done}/{total} mutants"
        )
        if self.live:
            if self.status is None:
                self.status = stderr.status(text)
                self.status.start()
            else:
                self.status.update(text)
        elif done == 0:
            stderr.print(
                f"mutate: playing the suite against the reference agent and {total} mutants"
            )

    def close(self) -> None:
        if self.status is not None:
            self.status.stop()


@app.command()
def mutate(
    paths: Annotated[list[Path], typer.Argument(help="Mantle case files or folders.")],
    project: Annotated[
        Path | None,
        typer.Option(
            "--project", "-p", help="The Mantle project the cases test (default: nearest)."
        ),
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object.")] = False,
    min_score: Annotated[
        float,
        typer.Option("--min-score", min=0.0, max=1.0, help="Exit 1 below this score (0-1)."),
    ] = 0.0,
    concurrency: Annotated[
        int, typer.Option("--concurrency", min=1, max=64, help="Mutants played at once.")
    ] = 4,
    mutant: Annotated[
        list[str] | None, typer.Option("--mutant", help="Only these mutant ids (repeatable).")
    ] = None,
    details: Annotated[
        bool,
        typer.Option(
            "--details", help="Add the kill matrix, every survivor and the equivalent mutants."
        ),
    ] = False,
) -> None:
    """Play a suite against the reference agent and every mutant derived from the project.

    A case kills a mutant when it passes against the reference agent and fails against the
    mutant. Prints the mutation score and the surviving mutants, each with the behaviour no
    case catches and a `casegen generate --direction` suggestion (--details: the kill matrix
    and every survivor).
    """
    from ..commands import mutate as run_mutate  # start-up: 7 casegen modules

    progress = None if as_json else _Progress()
    try:
        run = run_mutate(
            paths, project, concurrency=concurrency, only=mutant, min_score=min_score,
            on_played=progress,
        )  # fmt: skip
    finally:
        if progress is not None:
            progress.close()
    if as_json:
        print_json(run.to_json())
    else:
        _print(run.report, details=details)
    if run.below_min_score:
        stderr.print(f"[red]error:[/] {escape(run.below_min_score)}", highlight=False)
    raise typer.Exit(run.exit_code)


__all__ = ["mutate"]
