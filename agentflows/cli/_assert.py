"""`casegen assert`: check a Mantle scenario's assertions against a recorded tracker.

This is the deterministic half of a Mantle run (the part that needs no model): it answers
"would these assertions pass on this conversation?" from a saved tracker, so assertions can
be written and debugged without an agent or a judge running.
"""

import os
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer
from rich.markup import escape

from evalcore.errors import UserError

from ._app import app
from ._output import print_json, stderr, stdout

if TYPE_CHECKING:
    from rich.table import Table

    from evalcore.assertions import AssertionResult


def load_assertions(path: Path) -> list[Any]:
    """`scenario.goals.assertions` of a Mantle scenario file.

    A scenario without `goals` or without `assertions` has nothing to check, so it yields an
    empty list (and passes), the way a Mantle run without goals cannot fail on assertions.
    """
    from evalcore.dialects import get_dialect

    if not os.path.lexists(path):
        raise UserError(f"scenario file not found: {path}")
    doc = get_dialect("mantle").load(path)
    if not doc.parsed:
        problem = next(f for f in doc.findings if f.code == "parse" and not f.path)
        line = f" (line {problem.line})" if problem.line else ""
        raise UserError(
            f"cannot read scenario {path}{line}: {problem.message}", hint=problem.suggestion
        )
    for finding in doc.findings:
        stderr.print(
            f"[yellow]warning:[/] {escape(str(path))}:{finding.line or '-'}: "
            f"{escape(finding.message)}",
            highlight=False,
        )
    scenario = doc.data.get("scenario") if isinstance(doc.data, Mapping) else None
    if not isinstance(scenario, Mapping):
        raise UserError(f"{path} is not a Mantle scenario (no top-level 'scenario' mapping)")
    goals = scenario.get("goals")
    if goals is None:
        return []
    if not isinstance(goals, Mapping):
        raise UserError(f"{path}: scenario.goals must be a mapping")
    assertions = goals.get("assertions")
    if assertions is None:
        return []
    if not isinstance(assertions, list):
        raise UserError(f"{path}: scenario.goals.assertions must be a list of checks")
    return assertions


def load_events(path: Path) -> Any:
    """The parsed events of a tracker JSON file (a `{"events": [...]}` object or a list)."""
    from evalcore.assertions import parse_events
    from evalcore.documents import UnreadableFile, read_json

    if not os.path.lexists(path):
        raise UserError(
            f"events file not found: {path}",
            hint="save a tracker with GET /conversations/<sender_id>/tracker",
        )
    try:
        data = read_json(path)
    except UnreadableFile as exc:
        raise UserError(f"events file: {exc}") from None
    return parse_events(data)


def _table(results: "list[AssertionResult]") -> "Table":
    from rich.table import Table

    table = Table(show_edge=False, pad_edge=False, expand=False)
    table.add_column("#", justify="right", style="dim")
    table.add_column("type", style="cyan", no_wrap=True)
    table.add_column("result", no_wrap=True)
    table.add_column("detail", overflow="fold")
    for r in results:
        mark = "[green]PASS[/]" if r.passed else "[bold red]FAIL[/]"
        table.add_row(str(r.index), escape(r.type), mark, escape(r.detail))
    return table


@app.command("assert")
def assert_(
    scenario: Annotated[Path, typer.Argument(help="A Mantle scenario YAML file.")],
    events: Annotated[
        Path,
        typer.Option("--events", "-e", help='Tracker JSON: {"events": [...]} or a bare list.'),
    ],
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object.")] = False,
) -> None:
    """Evaluate a scenario's goals.assertions against recorded tracker events.

    Exit 0 when every assertion passes (or there are none), 1 when any fails, 2 on usage
    errors (missing or unreadable files, malformed events).
    """
    from evalcore.assertions import evaluate_mantle

    assertions = load_assertions(scenario)
    parsed = load_events(events)
    results = evaluate_mantle(assertions, parsed)
    passed = all(r.passed for r in results)
    if as_json:
        print_json({"passed": passed, "assertions": [r.to_json() for r in results]})
    else:
        if results:
            stdout.print(_table(results))
        failed = sum(not r.passed for r in results)
        colour = "green" if passed else "red"
        summary = f"{len(results) - failed}/{len(results)} assertions passed"
        if not results:
            summary = "no assertions in scenario.goals.assertions; nothing to check"
        stdout.print(f"[{colour}]{summary}[/]")
    raise typer.Exit(0 if passed else 1)
