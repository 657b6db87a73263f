"""`casegen repair`: deterministic fixes, shown as a diff and written in canonical form."""

from pathlib import Path
from typing import Annotated

import typer
from rich.markup import escape

from ..commands import repair_payload
from ._app import app
from ._output import print_json, print_report, stdout


@app.command()
def repair(
    paths: Annotated[list[Path], typer.Argument(help="Case files or folders (recursive).")],
    project: Annotated[
        Path | None, typer.Option("--project", "-p", help="Project folder (default: nearest).")
    ] = None,
    dialect: Annotated[str | None, typer.Option("--dialect", help="Force a dialect.")] = None,
    dry_run: Annotated[
        bool, typer.Option("--dry-run", help="Show the diff, write nothing.")
    ] = False,
    force: Annotated[
        bool,
        typer.Option("--force", help="Also rewrite YAML files with comments (they are lost)."),
    ] = False,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object.")] = False,
) -> None:
    """Fix what needs no model: close ids, lossless types, enum case, forbidden keys.

    Repaired files are rewritten in canonical form; anything not safely fixable stays
    reported. A YAML file with comments is left as it is (the rewrite would drop them)
    unless --force is given. Exit 0 when every file ends valid, 1 otherwise.
    """
    from rich.syntax import Syntax  # start-up: rich, pygments

    # start-up: evalcore.findings, which --help never needs
    from evalcore.findings import FileReport, Finding

    payload = repair_payload(paths, project=project, dialect=dialect, dry_run=dry_run, force=force)
    records, totals = payload["files"], payload["summary"]
    if as_json:
        print_json(payload)
    else:
        for record in records:
            for action in record["repairs"]:
                stdout.print(
                    f"[green]fixed[/] {escape(record['path'])} [cyan]{escape(action['path'])}[/]: "
                    f"{escape(repr(action['before']))} → {escape(repr(action['after']))}  "
                    f"[dim]({escape(action['reason'])})[/]"
                )
            if record["diff"] and dry_run:
                stdout.print(Syntax(record["diff"], "diff", theme="ansi_dark"))
            if record["skipped"]:
                stdout.print(f"[yellow]{escape(record['path'])}[/]: {escape(record['skipped'])}")
            findings = [Finding(**f) for f in record["errors"] + record["warnings"]]
            if findings:
                print_report(
                    FileReport(path=record["path"], dialect=record["dialect"], findings=findings)
                )
        verb = "would repair" if dry_run else "repaired"
        stdout.print(
            f"{verb} {totals['repaired']} of {totals['files']} files; "
            f"{totals['valid']} valid, {totals['invalid']} still invalid"
        )
    raise typer.Exit(1 if totals["invalid"] else 0)
