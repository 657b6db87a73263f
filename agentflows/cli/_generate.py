"""`casegen generate`: plan, draft, validate, repair, dedupe and write cases."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from evalcore.errors import UserError

from ..generate import build_request, run_generation
from ._app import app
from ._output import print_json, stderr, stdout


class _Counters:
    """Turns the flow's per-node updates into the progress line."""

    def __init__(self, progress: Progress | None) -> None:
        self.progress = progress
        self.task = progress.add_task("planning", total=None) if progress else None
        self.planned = 0
        self.drafted: set[str] = set()
        self.valid: set[str] = set()
        self.repaired: set[str] = set()
        self.failed: set[str] = set()

    def __call__(self, node: str, values: dict[str, Any]) -> None:
        if node == "plan":
            self.planned = len(values.get("behaviors", []))
        for behavior_id, work in (values.get("cases") or {}).items():
            status = work["status"]
            if node == "draft":
                (self.drafted if status != "failed" else self.failed).add(behavior_id)
            elif node == "repair":
                self.repaired.add(behavior_id)
            elif status == "valid":
                self.valid.add(behavior_id)
            elif status == "failed":
                self.failed.add(behavior_id)
        self.refresh(node)

    def refresh(self, node: str) -> None:
        if self.progress is None or self.task is None:
            return
        self.progress.update(
            self.task,
            total=self.planned or None,
            completed=len(self.valid) + len(self.failed),
            description=(
                f"{node:<8} planned {self.planned} · drafted {len(self.drafted)} · "
                f"valid {len(self.valid)} · repaired {len(self.repaired)} · "
                f"failed {len(self.failed)}"
            ),
        )


def _print_summary(report: dict[str, Any]) -> None:
    table = Table("file", "type", "behaviour", "assertions", "criteria", "repairs", "status",
                  title=f"{len(report['cases'])} cases · engine {report['engine']}")
    for row in report["cases"]:
        colour = {"conflict": "red", "unchanged": "dim"}.get(row["status"], "green")
        table.add_row(
            row["path"],
            row["type"],
            row["title"],
            str(row["assertions"]),
            str(row["criteria"]),
            str(len(row["repairs"])),
            f"[{colour}]{row['status']}[/]",
        )
    stdout.print(table)
    for source, cov in report["coverage"].items():
        line = f"coverage {source}: {cov['covered']}/{cov['elements']} elements"
        if cov["uncovered"]:
            line += " · uncovered: " + ", ".join(cov["uncovered"])
        stdout.print(line)
    for dup in report["duplicates"]:
        stdout.print(
            f"[yellow]dropped duplicate[/] {dup['behavior']} ≈ {dup['duplicate_of']} "
            f"({dup['similarity']:.2f})"
        )
    for failure in report["failed"]:
        stdout.print(f"[red]failed[/] {failure['behavior']}: {failure['error']}")
        for finding in failure["errors"][:5]:
            stdout.print(f"    [{finding['code']}] {finding['path']} {finding['message']}")
    for path in report["conflicts"]:
        stdout.print(
            f"[red]not written[/] {path}: it exists with different content (edited?); "
            "review it, or pass --force to overwrite"
        )
    llm = report["llm"]
    if report["engine"] != "offline":
        stdout.print(
            f"model calls {llm['calls']} (cache hits {llm['cache_hits']}) · tokens "
            f"{llm['input_tokens']} in / {llm['output_tokens']} out · ${llm['cost_usd']:.4f}"
        )
    stdout.print(f"run {report['run_id']} · engine {report['engine']}")


@app.command()
def generate(
    targets: Annotated[
        list[str] | None,
        typer.Argument(help="Skill id, playbook id, agent-skill name, or 'all'."),
    ] = None,
    project: Annotated[
        Path | None, typer.Option("--project", "-p", help="Project folder (default: nearest).")
    ] = None,
    dialect: Annotated[
        str | None, typer.Option("--dialect", help="mantle | anychat | base44 (default: by kind).")
    ] = None,
    count: Annotated[
        int | None, typer.Option("--count", min=1, help="Cases per target, most valuable first.")
    ] = None,
    types: Annotated[
        str | None, typer.Option("--types", help="Comma-separated case types to keep.")
    ] = None,
    direction: Annotated[
        str | None, typer.Option("--direction", help="Free-text direction that shapes cases.")
    ] = None,
    out: Annotated[
        Path | None,
        typer.Option("--out", help="Output folder (default generated_cases/<dialect>/<target>/)."),
    ] = None,
    model: Annotated[
        str | None, typer.Option("--model", help="Model name, or 'offline'.")
    ] = None,
    concurrency: Annotated[int, typer.Option("--concurrency", min=1, max=64)] = 4,
    resume: Annotated[
        str | None, typer.Option("--resume", help="Finish an interrupted run by its id.")
    ] = None,
    no_cache: Annotated[bool, typer.Option("--no-cache", help="Bypass the response cache.")] = False,
    force: Annotated[
        bool, typer.Option("--force", help="Overwrite case files that differ on disk.")
    ] = False,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object.")] = False,
) -> None:
    """Generate valid, reference-clean, non-duplicate cases for a target.

    Exit 0 when every planned case was written valid, 1 when some failed or were not written,
    2 on usage errors.
    """
    request = None
    if resume is None:
        if not targets:
            raise UserError("name a target (a skill, playbook, agent skill) or 'all'")
        request = build_request(
            targets,
            project=project,
            dialect=dialect,
            count=count,
            types=[t.strip() for t in types.split(",") if t.strip()] if types else None,
            direction=direction,
            out=str(out) if out else None,
            model=model,
            concurrency=concurrency,
            no_cache=no_cache,
            force=force,
        )
    progress = None if as_json else Progress(
        TextColumn("{task.description}"), BarColumn(), TimeElapsedColumn(),
        console=stderr, transient=True,
    )
    counters = _Counters(progress)
    run_ids: list[str] = []
    try:
        if progress is not None:
            progress.start()
        report = asyncio.run(
            run_generation(
                request, resume=resume, on_update=counters, on_start=run_ids.append
            )
        )
    except KeyboardInterrupt:
        if progress is not None:
            progress.stop()
        hint = f" — finish it with: casegen generate --resume {run_ids[0]}" if run_ids else ""
        stderr.print(f"[yellow]interrupted[/]{hint}")
        raise typer.Exit(130) from None
    finally:
        if progress is not None:
            progress.stop()
    if as_json:
        print_json(report)
    else:
        _print_summary(report)
    ok = not report["failed"] and not report["conflicts"]
    raise typer.Exit(0 if ok else 1)
