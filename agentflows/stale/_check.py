"""Compare each generated case with the project it was generated from, as it is today.

Three independent questions per manifest entry:
- did a definition file the case depends on change (hashes in the manifest vs today)?
- does the case still refer only to ids the project defines (reference lint today)?
- did a person edit the case file since it was written (its content hash)?
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

from pydantic import ValidationError

from evalcore import read_limited
from evalcore.definitions import Project, load_project
from evalcore.dialects import get_dialect
from evalcore.documents import load_document
from evalcore.errors import UserError
from evalcore.manifest import (
    CASES_ROOT_NAME,
    MANIFEST_NAME,
    Manifest,
    ManifestEntry,
    load_manifest,
    relevant_sources,
)
from evalcore.validation import validate_document

from ._hints import hints_for
from ._model import STATUS_ORDER, CaseState, SourceChange, StatusReport, UnknownId


def find_manifest(start: Path) -> Path:
    """`generated_cases/manifest.json` in `start` or the nearest folder above it."""
    start = start.resolve()
    for folder in (start, *start.parents):
        if folder.name == CASES_ROOT_NAME and (folder / MANIFEST_NAME).is_file():
            return folder / MANIFEST_NAME
        candidate = folder / CASES_ROOT_NAME / MANIFEST_NAME
        if candidate.is_file():
            return candidate
    raise UserError(
        f"no {CASES_ROOT_NAME}/{MANIFEST_NAME} here or above {start}",
        hint="pass --manifest FILE, or generate cases first (casegen generate TARGET)",
    )


def check_manifest(
    manifest_file: Path, *, project: Path | None = None, cwd: Path | None = None
) -> StatusReport:
    """The status of every case in the manifest (only `project`'s cases when given), worst
    status first (missing, broken, stale, edited, fresh), then by path."""
    cwd = (cwd or Path.cwd()).resolve()
    manifest = _load(manifest_file)
    folder = manifest_file.resolve().parent
    wanted = project.resolve() if project is not None else None
    projects: dict[Path, Project | str] = {}
    cases: list[CaseState] = []
    for key, entry in manifest.cases.items():
        root = (folder / entry.project).resolve()
        if (wanted is not None and root != wanted) or _rejected(entry):
            continue
        if root not in projects:
            projects[root] = _load_project(root)
        cases.append(_check_case(folder / key, key, entry, root, projects[root], cwd))
    rank = {status: i for i, status in enumerate(STATUS_ORDER)}
    cases.sort(key=lambda c: (rank[c.status], c.path))  # worst first: what needs work on top
    return StatusReport(
        manifest=_shown(manifest_file.resolve(), cwd),
        cases=cases,
        hints=hints_for(
            cases,
            {_shown(root, cwd): p.kind for root, p in projects.items() if isinstance(p, Project)},
        ),
    )


def _rejected(entry: ManifestEntry) -> bool:
    """A reviewer rejected the case: its file is gone on purpose, so it is not `missing`."""
    return getattr(entry, "review", None) == "rejected"


def _load(manifest_file: Path) -> Manifest:
    if not os.path.lexists(manifest_file):
        raise UserError(f"no manifest at {manifest_file}")
    try:
        return load_manifest(manifest_file)
    except (ValidationError, ValueError) as exc:
        raise UserError(f"{manifest_file} is not a casegen manifest: {exc}") from None


def _load_project(root: Path) -> Project | str:
    """The project, or why it cannot be read (it was moved or deleted)."""
    try:
        return load_project(root)
    except UserError as exc:
        return exc.message


def _check_case(
    file: Path, key: str, entry: ManifestEntry, root: Path, project: Project | str, cwd: Path
) -> CaseState:
    state = CaseState(
        path=_shown(file, cwd),
        key=key,
        source=entry.source,
        dialect=entry.dialect,
        project=_shown(root, cwd),
        status="fresh",
    )
    if isinstance(project, str):
        state.changed_sources = [SourceChange(path=p, change="removed") for p in entry.sources]
        state.reasons.append(project)
    else:
        state.changed_sources = source_changes(
            entry.sources, relevant_sources(project, entry.dialect, entry.source)
        )
        state.reasons += [f"{c.path} {c.change}" for c in state.changed_sources]
    if not file.is_file():
        state.status = "missing"
        state.reasons.insert(0, "case file deleted")
        return state
    try:
        content = read_limited(file)
    except OSError:  # a FIFO, a link to a device, a file over the limit: not what was written
        content = b""
    state.edited = hashlib.sha256(content).hexdigest() != entry.content_sha256
    if not isinstance(project, str):
        state.unknown_ids = unknown_ids(file, entry.dialect, project)
        state.reasons += [_unknown_reason(u) for u in state.unknown_ids]
    if state.edited:
        state.reasons.append("edited since it was generated")
    if state.unknown_ids or isinstance(project, str):
        state.status = "broken"
    elif state.changed_sources:
        state.status = "stale"
    elif state.edited:
        state.status = "edited"
    return state


def source_changes(recorded: dict[str, str], today: dict[str, str]) -> list[SourceChange]:
    """Changed, removed and added definition files, by path."""
    changes = [
        SourceChange(path=path, change="removed" if path not in today else "changed")
        for path, digest in recorded.items()
        if today.get(path) != digest
    ]
    changes += [SourceChange(path=path, change="added") for path in today if path not in recorded]
    return sorted(changes, key=lambda c: c.path)


def unknown_ids(file: Path, dialect: str, project: Project) -> list[UnknownId]:
    """The `unknown-*` findings of today's reference lint, with lines and suggestions."""
    findings = validate_document(load_document(file), get_dialect(dialect), project)
    return [
        UnknownId(
            code=f.code,
            path=f.path,
            line=f.line,
            value=f.value,
            message=f.message,
            suggestion=f.suggestion,
        )
        for f in findings
        if f.code.startswith("unknown-")
    ]


def _unknown_reason(unknown: UnknownId) -> str:
    where = f"line {unknown.line}: " if unknown.line else ""
    hint = f" → {unknown.suggestion}" if unknown.suggestion else ""
    return f"{where}[{unknown.code}] {unknown.message}{hint}"


def _shown(path: Path, cwd: Path) -> str:
    """`path` relative to the current folder (how a person would type it)."""
    return os.path.relpath(path, cwd)
