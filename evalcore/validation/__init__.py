"""Validation = parse + dialect schema + reference lint against the project's real ids.

reports = validate_paths([Path("examples/")])
assert all(r.valid for r in reports)
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..definitions import Project, find_project, load_project
from ..dialects import Dialect, detect_dialect, dialect_names, dialect_of, get_dialect
from ..documents import Document, load_document, locate_json
from ..findings import FileReport, Finding, sort_findings
from ..limits import InputLimits, limits_for
from ..schemas import schema_findings
from ._discover import iter_candidate_files, iter_listed_files

if TYPE_CHECKING:
    from ..manifest import Manifest


#: `manifest.MANIFEST_NAME`, without importing the manifest's models for every command.
_MANIFEST_FILE = "manifest.json"


def check_data(data: Any, dialect: Dialect, project: Project | None) -> list[Finding]:
    """Schema + lint findings for already-parsed data (no line numbers)."""
    findings = dialect.schema_findings(data)
    if project is not None and _lintable(project, dialect):
        findings += dialect.lint(data, project)
    return findings


def validate_document(
    doc: Document, dialect: Dialect, project: Project | None, *, note_no_project: bool = True
) -> list[Finding]:
    """All findings for one parsed document, with lines, in file order.

    `note_no_project=False` (schema-only checks, where skipping the lint is what was asked)
    makes no `no-project` warning: placing it builds the whole file's line map, which a
    valid file otherwise never needs."""
    findings = list(doc.findings)
    if doc.parsed:
        data, loading = dialect.as_loaded(doc)
        findings += loading
        findings += check_data(data, dialect, project)
        if note_no_project and (project is None or not _lintable(project, dialect)):
            findings.append(_no_project(dialect, project))
    if not findings:
        return findings
    return sort_findings(doc.locate(findings))


def _lintable(project: Project, dialect: Dialect) -> bool:
    return project.kind == dialect.project_kind


def _no_project(dialect: Dialect, project: Project | None) -> Finding:
    if project is None:
        message = "no enclosing project folder found; reference lint skipped"
    else:
        message = (
            f"project {project.root} is a {project.kind} project, not the {dialect.project_kind} "
            f"project {dialect.name} cases refer to; reference lint skipped"
        )
    return Finding(
        code="no-project",
        severity="warning",
        message=message,
        suggestion="pass --project DIR to lint against the project's real ids",
    )


class ProjectCache:
    """Loads each project folder once per command, however many files refer to it.

    Every per-folder answer (input limits, enclosing project, nearest manifest) is kept for
    the command, so a folder of thousands of cases costs one search, not one per file; the
    files themselves are still read every time."""

    def __init__(self, explicit: Path | None = None) -> None:
        self.explicit = load_project(explicit) if explicit is not None else None
        self._by_root: dict[Path, Project] = {}
        self._manifests: dict[Path, Manifest | None] = {}
        self._projects: dict[tuple[Path, str], Path | None] = {}
        self._enclosing: dict[tuple[str, str], Path | None] = {}
        self._limits: dict[Path, InputLimits] = {}
        self._folders: dict[str, Path] = {}
        self._nearest: dict[Path, tuple[Path, str] | None] = {}
        self._last: tuple[Path, tuple[Path, str] | None] | None = None
        self._listed: tuple[Path, bool] | None = None
        self._read: dict[Path, Any] = {}

    def listed(self, path: Path, link: bool | None) -> None:
        """What the folder listing knew of `path`, the next file asked about: whether it
        is a link (None: unknown), so resolving its folder needs no `lstat` of its own."""
        self._listed = (path, link) if link is not None else None

    def read_json_file(self, path: Path, data: Any) -> None:
        """`path` was read as JSON, and is `data`, while searching (`validate_file` keeps a
        manifest's data here), so the manifest it may be is not parsed a second time."""
        where = self._where(path)
        if where is not None:
            self._read[where[0] / where[1]] = data

    def _where(self, path: Path) -> tuple[Path, str] | None:
        """(`path.resolve().parent`, its name), resolving each folder once (a file that is
        itself a link is resolved on its own: its target decides where it lives); None when
        it cannot be resolved. The last file's answer is kept: its limits and its manifest
        entry both ask."""
        last = self._last
        if last is not None and last[0] is path:
            return last[1]
        where = self._resolve_where(path)
        self._last = (path, where)
        return where

    def _resolve_where(self, path: Path) -> tuple[Path, str] | None:
        listed = self._listed
        try:
            if listed[1] if listed is not None and listed[0] is path else path.is_symlink():
                resolved = path.resolve()
                return resolved.parent, resolved.name
            folder = os.path.dirname(str(path))
            if folder not in self._folders:
                self._folders[folder] = path.parent.resolve()
            return self._folders[folder], path.name
        except (OSError, RuntimeError, ValueError):
            return None

    def limits_for(self, path: Path) -> InputLimits:
        """The input limits of `path`'s folder, looked up once per folder per command
        (the search for the settings file goes up to the root)."""
        where = self._where(path)
        if where is None:
            return limits_for(path)
        folder = where[0]
        if folder not in self._limits:
            self._limits[folder] = limits_for(folder / where[1])
        return self._limits[folder]

    def for_file(self, path: Path, dialect: Dialect) -> Project | None:
        """`--project`, else the nearest enclosing project, else the project the manifest
        says a generated case was generated from."""
        if self.explicit is not None:
            return self.explicit
        key = (os.path.dirname(str(path)), dialect.project_kind)
        if key not in self._enclosing:  # one search per folder, not per file
            found = find_project(path.parent, kind=dialect.project_kind)
            self._enclosing[key] = found.resolve() if found is not None else None
        root = self._enclosing[key] or self._manifest_project(path)
        if root is None:
            return None
        if root not in self._by_root:
            self._by_root[root] = load_project(root)
        return self._by_root[root]

    def _manifest_project(self, path: Path) -> Path | None:
        """The project a generated case came from, per `generated_cases/manifest.json`.

        The nearest manifest above a folder is looked for, and parsed, once per command
        (None: unreadable), so a folder of thousands of generated cases reads its manifest
        once, not once per file."""
        where = self._where(path)
        if where is None:
            resolved = path.resolve()
            where = resolved.parent, resolved.name
        folder, name = where
        if folder not in self._nearest:
            self._nearest[folder] = self._find_manifest(folder)
        nearest = self._nearest[folder]
        if nearest is None:
            return None
        manifest_file, prefix = nearest
        manifest = self._manifests[manifest_file]
        if manifest is None:
            return None
        entry = manifest.cases.get(prefix + name)
        if entry is None:
            return None
        base = manifest_file.parent
        key = (base, entry.project)
        if key not in self._projects:
            project = (base / entry.project).resolve()
            self._projects[key] = project if project.is_dir() else None
        return self._projects[key]

    def _find_manifest(self, folder: Path) -> tuple[Path, str] | None:
        """The nearest manifest at or above `folder` (parsed into `_manifests`), with the
        prefix that makes a file name in `folder` a key of its `cases`."""
        # start-up: pydantic, hashlib and 6 casegen modules
        from ..manifest import MANIFEST_NAME, load_manifest, manifest_from_data

        for base in (folder, *folder.parents):
            manifest_file = base / MANIFEST_NAME
            if manifest_file not in self._manifests:
                if not manifest_file.is_file():
                    continue
                try:
                    self._manifests[manifest_file] = (
                        manifest_from_data(manifest_file, self._read.pop(manifest_file))
                        if manifest_file in self._read
                        else load_manifest(manifest_file)
                    )
                except ValueError:
                    self._manifests[manifest_file] = None
            inside = folder.relative_to(base).as_posix()
            return manifest_file, "" if inside == "." else inside + "/"
        return None


def validate_file(
    path: Path,
    *,
    projects: ProjectCache,
    dialect: str | None = None,
    explicit: bool = True,
    note_no_project: bool = True,
) -> FileReport | None:
    """Validate one file; None when a searched (not named) file is not a case at all.
    `note_no_project=False`: no `no-project` warning (see `validate_document`)."""
    # A searched JSON file is located (lines, repeated keys) only once it is known to be a
    # case: a folder's other JSON files, such as a large manifest, need no second pass.
    doc = load_document(path, limits=projects.limits_for(path), locate=explicit)
    forced = get_dialect(dialect) if dialect else None
    chosen: Dialect | None
    if explicit:
        chosen = forced or dialect_of(doc.data, path)
    elif doc.data is None:
        # A searched file that does not parse counts only if it sits where cases live.
        chosen = forced or _case_location_dialect(path)
    else:
        chosen = detect_dialect(doc.data, path)
        if forced is not None and chosen is not forced:
            chosen = None
    if chosen is None:
        if not explicit and not doc.parsed and _yaml_suffix(path):
            # A YAML file in a folder of cases that does not parse (a syntax error, an
            # alias loop) may be a case nobody can read: an error, never left out.
            return FileReport(path=str(path), dialect=None, findings=doc.findings)
        if not explicit:
            if doc.data is not None and path.name == _MANIFEST_FILE and not doc.findings:
                projects.read_json_file(path, doc.data)
            return None
        if not doc.parsed:
            return FileReport(path=str(path), dialect=None, findings=doc.findings)
        return FileReport(
            path=str(path),
            dialect=None,
            findings=[
                Finding(
                    code="schema",
                    line=1,
                    message="cannot tell which dialect this file is",
                    suggestion="pass --dialect " + "|".join(dialect_names()),
                )
            ],
        )
    locate_json(doc)
    project = projects.for_file(path, chosen)
    # The fields are already what they must be (a str, a name, Findings): not checked again.
    return FileReport.model_construct(
        path=str(path),
        dialect=chosen.name,
        findings=validate_document(doc, chosen, project, note_no_project=note_no_project),
    )


def _yaml_suffix(path: Path) -> bool:
    """YAML is only ever read as a case here; a JSON file may be any tool's settings."""
    return path.suffix.lower() in {".yml", ".yaml"}


def _case_location_dialect(path: Path) -> Dialect | None:
    """A dialect for an unparsable file found in a folder, judged by where it sits."""
    for candidate in (get_dialect(n) for n in dialect_names()):
        if path.suffix.lower() in candidate.suffixes and candidate.sniff(None, path):
            return candidate
    return None


def validate_paths(
    paths: Sequence[Path],
    *,
    project: Path | None = None,
    dialect: str | None = None,
    projects: ProjectCache | None = None,
) -> list[FileReport]:
    """Validate files and folders (recursively); folders yield only files that are cases.
    `projects`: the cache to load projects through (the caller reads them afterwards)."""
    projects = projects if projects is not None else ProjectCache(project)
    reports: list[FileReport] = []
    for file, explicit, link in iter_listed_files(paths):
        projects.listed(file, link)
        try:
            report = validate_file(file, projects=projects, dialect=dialect, explicit=explicit)
        except RecursionError:
            # Loading is bounded (evalcore.limits); this is the last guard so that one
            # pathological file is a finding for that file and the report stays whole.
            report = FileReport(
                path=str(file),
                dialect=None,
                findings=[Finding(code="parse", message="file is nested too deeply to check")],
            )
        if report is not None:
            reports.append(report)
    return reports


def summary(reports: Sequence[FileReport]) -> dict[str, int]:
    valid = sum(r.valid for r in reports)
    return {"files": len(reports), "valid": valid, "invalid": len(reports) - valid}


__all__ = [
    "ProjectCache",
    "check_data",
    "iter_candidate_files",
    "schema_findings",
    "summary",
    "validate_document",
    "validate_file",
    "validate_paths",
]
