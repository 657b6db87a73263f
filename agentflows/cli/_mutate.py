"""`casegen mutate`: the kill matrix of a Mantle suite against the reference agent's mutants.

Exit codes: 0 the mutation score reaches `--min-score` (default 0: always) · 1 it does not ·
2 usage errors (bad paths, invalid cases, not a Mantle project, unknown mutant id).
"""

from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer
from rich.markup import escape

from ._app import app
from ._output import print_json, stdout

if TYPE_CHECKING:  # the runner and the reference agent load when the command runs, not
    from agentflows.mutate import MutationReport  # for `casegen --help`


def _print(report: "MutationReport") -> None:
    from rich.table import Table

    passed = sum(s == "passed" for s in report.reference.values())
    stdout.print(
        f"reference agent: {passed}/{len(report.reference)} cases pass "
        f"(a case it fails cannot kill a mutant)"
    )
    for slug, status in sorted(report.reference.items()):
        if status != "passed":
            stdout.print(f"  [yellow]{status}[/] {escape(slug)}")
    table = Table(title="kill matrix")
    table.add_column("mutant")
    table.add_column("killed by")
    for result in report.results:
        killers = ", ".join(result.killed_by[:3]) + (" …" if len(result.killed_by) > 3 else "")
        table.add_row(escape(result.mutant.id), escape(killers) if killers else "[red]survives[/]")
    stdout.print(table)
    killed = sum(r.killed for r in report.results)
    stdout.print(f"mutation score: {killed}/{len(report.results)} = {report.score:.0%}")
    if report.equivalent:
        stdout.print(
            f"{len(report.equivalent)} equivalent mutants (they cannot behave differently, "
            "so they are not played or scored):"
        )
        for mutant in report.equivalent:
            stdout.print(
                f"  [dim]equivalent[/] {escape(mutant.id)}: {escape(mutant.equivalent or '')}"
            )
    for result in report.survivors():
        reason = report.reason(result)
        stdout.print(
            f"[red]survives[/] {escape(result.mutant.id)}: the agent "
            f"{escape(result.mutant.behaviour)}"
        )
        stdout.print(f"  why ({reason.code}): {escape(reason.text)}")
        stdout.print(f"  try: {escape(report.suggestion(result))}")


@app.command()
def mutate(
    paths: Annotated[list[Path], typer.Argument(help="Mantle case files or folders.")],
    project: Annotated[
        Path, typer.Option("--project", "-p", help="The Mantle project the cases test.")
    ],
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
) -> None:
    """Play a suite against the reference agent and every mutant derived from the project.

    A case kills a mutant when it passes against the reference agent and fails against the
    mutant. Prints the kill matrix, the mutation score, and each surviving mutant with the
    behaviour no case catches and a `casegen generate --direction` suggestion.
    """
    import asyncio

    from agentflows.mutate import mutate as run_mutate
    from evalcore.agents.reference import ReferenceTarget, find_mutant
    from evalcore.errors import UserError
    from evalcore.runner import collect_cases

    cases = collect_cases(paths, project=project)
    if any(c.dialect != "mantle" for c in cases):
        raise UserError("casegen mutate plays Mantle cases only", hint="pass Mantle scenarios")
    reference = ReferenceTarget(project)
    for mutant_id in mutant or []:
        find_mutant(reference.project, mutant_id)
    report = asyncio.run(run_mutate(cases, project, concurrency=concurrency, only=mutant))
    if as_json:
        print_json(report.to_json())
    else:
        _print(report)
    raise typer.Exit(0 if report.score >= min_score else 1)


__all__ = ["mutate"]
