"""`casegen generate`'s summary after the run: tables, coverage, drops, failures."""

from typing import Any

from rich.markup import escape

from ..outside_services import outside_by_tool
from ._output import stderr, stdout


def _print_summary(report: dict[str, Any]) -> None:
    from ._generate_table import print_cases  # start-up: rich and 1 casegen module

    _print_rasa_refusal(report.get("rasa_refusal"))
    print_cases(report)
    engines = report.get("engines") or {}
    if set(engines) - {report["engine"]}:
        stdout.print(
            escape("engines: " + ", ".join(f"{n} × {name}" for name, n in engines.items()))
        )
    for clause in report.get("direction_unread") or []:
        stdout.print(
            f"[yellow]direction not used offline:[/] “{escape(clause)}” (the offline drafter "
            "reads a persona, 'make sure …' checks, values and themes; a model reads any "
            "text: --model)"
        )
    for source, cov in report["coverage"].items():
        line = f"coverage {source}: {cov['covered']}/{cov['elements']} elements asserted"
        touched = cov.get("touched") or []
        if touched:
            line += " · touched, no assertion checks it: " + _listed(touched)
        untouched = [e for e in cov["uncovered"] if e not in touched]
        if untouched:
            line += " · uncovered: " + _listed(untouched)
        stdout.print(escape(line))
        for item in cov.get("untestable") or []:
            stdout.print(
                escape(f"  not testable by a scenario: {item['element']}: {item['reason']}")
            )
    for dup in report["duplicates"]:
        stdout.print(
            f"[yellow]dropped duplicate[/] {escape(dup['behavior'])} ≈ "
            f"{escape(dup['duplicate_of'])} "
            f"({dup['similarity']:.2f})"
            + (f": {escape(dup['reason'])}" if dup.get("reason") else "")
        )
    _print_outside(report.get("cases") or [])
    for left in report.get("spread", []):
        stdout.print(f"[dim]not drafted[/] {escape(left['behavior'])}: {escape(left['reason'])}")
    for drop in report.get("dropped", []):
        stdout.print(
            f"[yellow]dropped before writing[/] {escape(drop['behavior'])}: "
            f"{escape(str(drop['reason']))}"
        )
    for failure in report["failed"]:
        if failure.get("error_kind") == "halted":
            continue  # said once below, with the hint
        stdout.print(
            f"[red]failed[/] {escape(failure['behavior'])}: {escape(str(failure['error']))}"
        )
        for finding in failure["errors"][:5]:
            stdout.print(escape(f"    [{finding['code']}] {finding['path']} {finding['message']}"))
    _print_halt(report.get("halted"))
    for path in report["conflicts"]:
        stdout.print(
            f"[red]not written[/] {escape(str(path))}: it exists with different content (edited?); "
            "review it, or pass --force to overwrite"
        )
    llm = report["llm"]
    if report["engine"] != "offline":
        stdout.print(
            f"model calls {llm['calls']} (cache hits {llm['cache_hits']}) · tokens "
            f"{llm['input_tokens']} in / {llm['output_tokens']} out · ${llm['cost_usd']:.4f}"
        )
    stdout.print(f"run {report['run_id']} · engine {report['engine']}")


#: How many items of a list a summary line names; `--json` has them all.
LISTED = 6


def _listed(items: list[str]) -> str:
    """The first few items and how many more: a project with 70 uncovered elements got a
    line of three screens."""
    shown = ", ".join(items[:LISTED])
    more = len(items) - LISTED
    return shown + (f" and {more} more (--json lists them)" if more > 0 else "")


def _print_outside(rows: list[dict[str, Any]]) -> None:
    """One line per tool acting on a real service that written cases run: running them
    with its credentials set does it for real (the case files say so too)."""
    for found in outside_by_tool(rows):
        where = f" ({', '.join(found.credentials)})" if found.credentials else ""
        stdout.print(
            f"[yellow]outside service:[/] {escape(found.tool)} acts on a real service "
            f"({escape(', '.join(found.calls[:2]))}); with its credentials "
            f"set{escape(where)}, running {len(found.rows)} case(s) does that for real: "
            + escape(_listed([str(row.get("behavior")) for row in found.rows]))
        )


def _print_rasa_refusal(refusal: dict[str, Any] | None) -> None:
    """Loud, first: the cases were planned for a project Rasa would not build."""
    if refusal:
        stderr.print(f"[bold red]warning:[/] {escape(refusal['message'])}", highlight=False)


def _print_halt(halted: dict[str, Any] | None) -> None:
    if not halted:
        return
    stderr.print(
        f"[red]error:[/] drafting stopped: {escape(halted['error'])}; "
        f"{halted['not_drafted']} case(s) not drafted",
        highlight=False,
    )
    stderr.print(
        f"  [dim]hint:[/] {escape(halted['hint'])}; once it answers: {escape(halted['resume'])}",
        highlight=False,
    )
