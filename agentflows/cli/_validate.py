"""`casegen validate`: schema + reference lint for case files and folders.

A check that could not run is not a pass: a case with no project to lint against is an
error (its ids were never checked) unless `--no-project` says schema-only is what is
wanted, and paths that hold no case file at all are a usage error (exit 2), as for `run`.
"""

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from evalcore.errors import UserError

from ._app import app
from ._output import no_case_files, print_json, print_report, stderr, stdout
from ._plain import escape

if TYPE_CHECKING:
    from evalcore.findings import FileReport
    from evalcore.validation import ProjectCache

NO_PROJECT_HINT = (
    "pass --project DIR to lint against the project's real ids, or --no-project to check "
    "the schema only"
)


@app.command()
def validate(
    paths: Annotated[list[Path], typer.Argument(help="Case files or folders (recursive).")],
    project: Annotated[
        Path | None,
        typer.Option("--project", "-p", help="Lint against this project (default: nearest)."),
    ] = None,
    no_project: Annotated[
        bool,
        typer.Option(
            "--no-project",
            help="Check the schema only: no project lookup, no reference lint.",
        ),
    ] = False,
    dialect: Annotated[
        str | None, typer.Option("--dialect", help="mantle | anychat | base44 (default: detect).")
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object.")] = False,
) -> None:
    """Check case files against their dialect's schema and the project's real ids.

    Exit 0 when no file has an error (warnings allowed), 1 when any has (a case with no
    project to lint against is one, unless --no-project), 2 on usage errors and when the
    paths hold no case file.
    """
    # start-up: yaml and 43 casegen modules
    from evalcore.validation import ProjectCache, summary, validate_paths

    if no_project and project is not None:
        raise UserError("--project and --no-project contradict each other")
    projects = ProjectCache(project) if project is not None else None
    reports = (
        _schema_only(paths, dialect)
        if no_project
        else validate_paths(paths, project=project, dialect=dialect, projects=projects)
    )
    if not reports:
        raise no_case_files(paths)
    reports = [_require_project(r) for r in reports] if not no_project else reports
    totals = summary(reports)
    found = _project_findings(projects)
    if as_json:
        print_json(
            {
                "files": [r.to_json() for r in reports],
                "summary": totals,
                "lint": "skipped (--no-project)" if no_project else "project",
                **({"project_findings": found} if found is not None else {}),
            }
        )
    else:
        for report in reports:
            print_report(report)
        _print_project_findings(found)
        colour = "green" if totals["invalid"] == 0 else "red"
        stdout.print(
            f"[{colour}]{totals['valid']}/{totals['files']} files valid[/]"
            + (f", {totals['invalid']} invalid" if totals["invalid"] else "")
            + (" [dim](schema only: --no-project)[/]" if no_project else "")
        )
    raise typer.Exit(1 if totals["invalid"] else 0)


def _project_findings(projects: "ProjectCache | None") -> dict[str, Any] | None:
    """The --project project's own findings (Rasa's project check among them), reported
    once for the command rather than with every case file."""
    from evalcore.definitions import rasa_refusal  # start-up: yaml and 36 casegen modules

    loaded = projects.explicit if projects is not None else None
    if loaded is None:
        return None
    return {
        "project": str(loaded.root),
        "warnings": list(loaded.warnings),
        "rasa_refusal": rasa_refusal(loaded.warnings),
    }


def _print_project_findings(found: dict[str, Any] | None) -> None:
    if not found or not found["warnings"]:
        return
    stdout.print(f"[bold]project findings[/] {escape(found['project'])}")
    for warning in found["warnings"]:
        stdout.print(f"  [yellow]warning:[/] {escape(warning)}")
    if found["rasa_refusal"]:
        stderr.print(f"[bold red]warning:[/] {escape(found['rasa_refusal']['message'])}")


def _require_project(report: "FileReport") -> "FileReport":
    """The `no-project` warning (reference lint skipped) as an error: ids went unchecked."""
    findings = [
        f.model_copy(update={"severity": "error", "suggestion": NO_PROJECT_HINT})
        if f.code == "no-project"
        else f
        for f in report.findings
    ]
    return report.model_copy(update={"findings": findings})


def _schema_only(paths: Sequence[Path], dialect: str | None) -> "list[FileReport]":
    """`validate_paths` without a project: schema findings only, no `no-project` note (not
    made at all: placing it built each file's whole line map)."""
    # start-up: yaml and 43 casegen modules
    from evalcore.validation import ProjectCache, iter_candidate_files, validate_file

    class _NoProject(ProjectCache):
        def for_file(self, path: Path, dialect: object) -> None:  # type: ignore[override]
            return None

    projects = _NoProject()
    reports: list[FileReport] = []
    for file, explicit in iter_candidate_files(paths):
        report = validate_file(
            file, projects=projects, dialect=dialect, explicit=explicit, note_no_project=False
        )
        if report is not None:
            reports.append(report)
    return reports
