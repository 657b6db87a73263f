"""The report in a terminal (rich) and as JSON: the summary, the cases not passing, and
the comparison's lists."""

from __future__ import annotations

from typing import Any

from rich.console import Console
from rich.markup import escape
from rich.table import Table

from evalcore.workdir import shown_path

from ._compare import Comparison
from ._html import CHANGE_TITLES
from ._load import Batch

#: Lists printed whole; the others stop after `_SHOWN` entries.
_ALL_SHOWN = ("regressed", "fixed", "now_errored")
_SHOWN = 5
_COLOURS = {"passed": "green", "failed": "red", "errored": "dark_orange"}


def _count(number: int, noun: str) -> str:
    return f"{number} {noun}{'' if number == 1 else 's'}"


def print_terminal(console: Console, batch: Batch, comparison: Comparison | None) -> None:
    s, t = batch.summary, batch.summary.totals
    engines = batch.engines
    console.print(f"[bold]results[/] {escape(shown_path(batch.dir))}")
    console.print(
        f"target {escape(s.target or '?')} · simulator {escape(', '.join(engines['simulator']))}"
        f" · judge {escape(', '.join(engines['judge']))}"
    )
    if s.target_note:
        console.print(f"[yellow]note:[/] {escape(s.target_note)}")
    console.print(
        f"{_count(len(batch.cases), 'case')} · {_count(t.total, 'run')}: "
        f"[green]{t.passed} passed[/], "
        f"[red]{t.failed} failed[/], [dark_orange]{t.errored} errored[/]"
        + (f" · {t.assertions_only} passed on assertions only" if t.assertions_only else "")
    )
    for problem in batch.problems:
        console.print(f"[red]could not read[/] {escape(problem.path)}: {escape(problem.message)}")
    failing = [c for c in batch.cases if c.status != "passed"]
    if failing:
        table = Table(title="cases not passing", title_justify="left")
        table.add_column("status", no_wrap=True)
        table.add_column("case", overflow="fold")
        table.add_column("runs", no_wrap=True)
        table.add_column("failing checks", overflow="fold")
        for case in failing:
            checks = sorted(
                {
                    f"{a.get('type')}"
                    for run in case.runs
                    for a in run.assertions
                    if a.get("passed") is not True
                }
                | {
                    f"criterion {c.index}"
                    for run in case.runs
                    for c in run.criteria
                    if c.verdict in ("fail", "inconclusive")
                }
                | {"error" for run in case.runs if run.errored}
            )
            colour = _COLOURS[case.status]
            table.add_row(
                f"[{colour}]{case.status}[/]",
                escape(case.slug),
                f"{case.passed_runs}/{len(case.runs)}",
                escape(", ".join(checks)),
            )
        console.print(table)
    if comparison is not None:
        _print_comparison(console, comparison)


def _print_comparison(console: Console, comparison: Comparison) -> None:
    counts = comparison.counts
    console.print(f"\n[bold]compared with[/] {escape(comparison.baseline)}")
    for warning in comparison.warnings:
        console.print(f"[yellow]warning:[/] {escape(warning)}")
    for kind, title in CHANGE_TITLES.items():
        changes = comparison.of(kind)
        if not changes:
            continue
        colour = {"regressed": "red", "fixed": "green", "now_errored": "dark_orange"}.get(
            kind, "white"
        )
        console.print(f"[bold {colour}]{title} ({len(changes)})[/]")
        shown = changes if kind in _ALL_SHOWN else changes[:_SHOWN]
        for c in shown:
            before = f"{c.before} {c.before_runs}" if c.before else "not in baseline"
            after = f"{c.after} {c.after_runs}" if c.after else "not run"
            console.print(f"  {escape(c.slug)}  [dim]{escape(before)} → {escape(after)}[/]")
            if c.newly_failing:
                console.print(f"    [dim]now failing:[/] {escape('; '.join(c.newly_failing))}")
            if c.newly_passing:
                console.print(f"    [dim]now passing:[/] {escape('; '.join(c.newly_passing))}")
        if len(shown) < len(changes):
            console.print(f"  [dim]… and {len(changes) - len(shown)} more (--json lists all)[/]")
    console.print(
        " · ".join(f"{counts[k]} {CHANGE_TITLES[k].lower()}" for k in CHANGE_TITLES if counts[k])
        + (" · " if any(counts[k] for k in CHANGE_TITLES) else "")
        + f"{counts['unchanged']} unchanged"
    )


def report_json(batch: Batch, comparison: Comparison | None, html: str | None) -> dict[str, Any]:
    """The `--json` document."""
    return {
        "results_dir": str(batch.dir),
        "summary": batch.summary.model_dump(mode="json"),
        "engines": batch.engines,
        "cases": [
            {
                "slug": c.slug,
                "case": c.name,
                "path": c.path,
                "status": c.status,
                "runs_passed": c.passed_runs,
                "runs_total": len(c.runs),
            }
            for c in batch.cases
        ],
        "problems": [{"path": p.path, "message": p.message} for p in batch.problems],
        "compare": comparison.to_json() if comparison else None,
        "html": html,
    }


__all__ = ["print_terminal", "report_json"]
