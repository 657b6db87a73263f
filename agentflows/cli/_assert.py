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
from evalcore.lexicon.notation.case_pointers import ASSERTION as ASSERTION_POINTER

from ._app import app
from ._output import print_json, stderr, stdout

if TYPE_CHECKING:
    from rich.table import Table

    from evalcore.assertions import AssertionResult


def load_assertions(path: Path) -> tuple[Any, list[Any]]:
    """A Mantle scenario file's data and its `scenario.goals.assertions`.

    A scenario without `goals` or without `assertions` has nothing to check, so it yields an
    empty list (and passes), the way a Mantle run without goals cannot fail on assertions.
    """
    from evalcore.dialects import get_dialect  # start-up: yaml and 15 casegen modules

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
        return doc.data, []
    if not isinstance(goals, Mapping):
        raise UserError(f"{path}: scenario.goals must be a mapping")
    assertions = goals.get("assertions")
    if assertions is None:
        return doc.data, []
    if not isinstance(assertions, list):
        raise UserError(f"{path}: scenario.goals.assertions must be a list of checks")
    return doc.data, assertions


def schema_rejected(data: Any) -> dict[int, list[str]]:
    """The scenario schema's errors (the ones `casegen validate` reports) by assertion index:
    an assertion `validate` rejects is never judged, whatever the engine would say."""
    from evalcore.dialects import get_dialect  # start-up: yaml and 15 casegen modules

    rejected: dict[int, list[str]] = {}
    for finding in get_dialect("mantle").schema_findings(data):
        match = ASSERTION_POINTER.match(finding.path or "")
        if match and finding.severity == "error":
            rejected.setdefault(int(match.group(1)), []).append(
                f"{finding.path}: {finding.message}"
            )
    return rejected


def judged(data: Any, assertions: list[Any], parsed: Any) -> "list[AssertionResult]":
    """`evaluate_mantle`'s results, with each assertion the scenario schema rejects failed
    as invalid, naming the schema's message."""
    from evalcore.assertions import AssertionResult, evaluate_mantle  # start-up: 12 casegen modules

    results = evaluate_mantle(assertions, parsed)
    for index, messages in schema_rejected(data).items():
        if index < len(results):
            result = results[index]
            results[index] = AssertionResult(
                index,
                result.type,
                False,
                "rejected by the scenario schema (casegen validate): " + "; ".join(messages),
                invalid=True,
            )
    return results


def load_events(path: Path) -> Any:
    """The parsed events of a tracker JSON file (a `{"events": [...]}` object or a list)."""
    from evalcore.assertions import parse_events  # start-up: 12 casegen modules
    from evalcore.documents import UnreadableFile, read_json  # start-up: yaml and 9 casegen modules

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
    from rich.table import Table  # start-up: rich

    table = Table(show_edge=False, pad_edge=False, expand=False)
    table.add_column("#", justify="right", style="dim")
    table.add_column("type", style="cyan", no_wrap=True)
    table.add_column("result", no_wrap=True)
    table.add_column("detail", overflow="fold")
    for r in results:
        mark = "[green]PASS[/]" if r.passed else "[bold red]FAIL[/]"
        if r.invalid:
            mark = "[bold red]INVALID[/]"
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

    Verdicts are the ones Rasa's `evaluate_assertions` gives; an assertion that `casegen
    validate` rejects fails as invalid. Exit 0 when every assertion passes (or there are
    none), 1 when any fails, 2 on usage errors (missing or unreadable files, malformed events).
    """
    data, assertions = load_assertions(scenario)
    parsed = load_events(events)
    results = judged(data, assertions, parsed)
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
