"""Which cases a `casegen run PATH...` runs, and where their results go by default.

Discovery is `casegen validate`'s: the same folder walk (`iter_candidate_files`), dialect
detection and validity (schema + reference lint against the project). Running an invalid
case would report its typos as agent failures, so any invalid file stops the command before
a conversation starts, listing every such file.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from ..definitions import Project, find_project, load_project, project_kind_of
from ..dialects import dialect_for_kind, dialect_names, get_dialect
from ..errors import UserError
from ..runcase import RunCase, load_run_cases
from ..validation import ProjectCache, iter_candidate_files, validate_file
from ._fixture_skills import check_fixture_skills, with_skills_project

_SHOWN = 10


def collect_cases(
    paths: Sequence[Path], *, project: Path | None = None, dialect: str | None = None
) -> list[RunCase]:
    """Every runnable case under `paths`, files in sorted order.

    A fixture case (base44) names the Agent Skills project its agent gets skills from
    (`with_skills_project`): the project it is validated against.

    Raises:
        UserError: a path does not exist, a file is invalid (all are listed), no case
            was found, or a fixture case expects a skill that cannot be installed.
    """
    projects = ProjectCache(project)
    cases: list[RunCase] = []
    invalid: list[str] = []
    for file, explicit in iter_candidate_files(paths):
        report = validate_file(file, projects=projects, dialect=dialect, explicit=explicit)
        if report is None:
            continue
        if not report.valid:
            errors = [f for f in report.findings if f.severity == "error"]
            first = errors[0] if errors else None
            where = f":{first.line}" if first and first.line else ""
            invalid.append(
                f"{file}{where}: {first.message if first else 'invalid'}"
                + (f" (+{len(errors) - 1} more)" if len(errors) > 1 else "")
            )
            continue
        loaded = load_run_cases(file, dialect=report.dialect)
        if report.dialect and any(case.setup.get("fixture") for case in loaded):
            project = projects.for_file(file, get_dialect(report.dialect))
            loaded = with_skills_project(loaded, project)
        cases.extend(loaded)
    if invalid:
        shown = "\n  ".join(invalid[:_SHOWN])
        more = f"\n  … and {len(invalid) - _SHOWN} more" if len(invalid) > _SHOWN else ""
        raise UserError(
            f"{len(invalid)} case file{'s are' if len(invalid) > 1 else ' is'} invalid and "
            f"cannot be run:\n  {shown}{more}",
            hint="run `casegen validate "
            + " ".join(str(p) for p in paths)
            + "` for every finding (and `casegen repair` to fix what can be fixed)",
        )
    if not cases:
        raise UserError(
            "no case files found under " + ", ".join(str(p) for p in paths),
            hint="give Mantle scenario YAML, Anychat test-case JSON or base44 eval JSON files, "
            "or folders that contain them",
        )
    check_fixture_skills(cases)
    return cases


def default_results_dir(
    cases: Sequence[RunCase], *, project: Path | None = None, cwd: Path | None = None
) -> Path:
    """The project's own results folder where its dialect has one (Mantle's
    `eval/results`, Rasa's place), else `./results`.

    The project is `--project`, else the one project of the cases' dialect every case sits
    in; cases from several projects or dialects go to `./results`.
    """
    here = cwd or Path.cwd()
    if project is not None:
        plugin = dialect_for_kind(project_kind_of(Path(project)))
        folder = plugin.results_folder if plugin is not None else None
        return Path(project) / folder if folder else here / "results"
    dialects = {c.dialect for c in cases}
    known = len(dialects) == 1 and dialects <= set(dialect_names())
    plugin = get_dialect(dialects.pop()) if known else None
    if plugin is None or plugin.results_folder is None:
        return here / "results"
    roots = {find_project(Path(c.path).parent, kind=plugin.project_kind) for c in cases}
    if len(roots) == 1 and None not in roots:
        root = roots.pop()
        assert root is not None
        return root / plugin.results_folder
    return here / "results"


def cases_project(cases: Sequence[RunCase], *, project: Path | None = None) -> Project | None:
    """The project definitions the cases refer to: `--project`, else the one project every
    case sits in (None when there is none or several)."""
    if project is not None:
        return load_project(Path(project))
    roots = {find_project(Path(c.path).parent) for c in cases}
    if len(roots) != 1 or None in roots:
        return None
    root = roots.pop()
    return load_project(root) if root is not None else None


__all__ = ["cases_project", "collect_cases", "default_results_dir"]
