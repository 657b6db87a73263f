"""`generated_cases/manifest.json`: where every generated case came from.

One entry per case file: dialect, source, behaviour, engine and model, when, and the hashes
of the definition files it was generated from. `casegen status` compares those hashes with
the project today to find cases that went stale.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, Field, ValidationError

from ._readbytes import RefusedFile, read_limited
from .definitions import Project
from .dialects import get_dialect
from .documents import UnreadableFile, read_json
from .errors import UserError
from .writer import atomic_write_text

MANIFEST_NAME = "manifest.json"
CASES_ROOT_NAME = "generated_cases"


class ManifestEntry(BaseModel):
    dialect: str
    source: str
    behavior: str
    type: str
    engine: str
    model: str | None = None
    generated_at: str
    run_id: str
    project: str
    """Project root, relative to the manifest's folder when possible."""
    sources: dict[str, str] = Field(default_factory=dict)
    """Definition file (project-relative) → sha256 when the case was generated."""
    content_sha256: str
    review: Literal["accepted", "rejected"] | None = None
    """The reviewer's verdict (`casegen review --interactive`); None until reviewed. A rejected
    case's file is removed, its entry stays so the rejection is not forgotten."""


class Manifest(BaseModel):
    version: int = 1
    cases: dict[str, ManifestEntry] = Field(default_factory=dict)
    """Case path relative to the manifest's folder (posix) → entry."""


def manifest_path_for(out_dir: Path) -> Path:
    """`generated_cases/manifest.json` above `out_dir`, else `<out_dir>/manifest.json`."""
    resolved = out_dir.resolve()
    for folder in (resolved, *resolved.parents):
        if folder.name == CASES_ROOT_NAME:
            return folder / MANIFEST_NAME
    return resolved / MANIFEST_NAME


class ManifestError(UserError, ValueError):
    """The manifest file cannot be used: unreadable, broken, or not one casegen wrote."""

    exit_code = 1


_HINT = "pass --manifest PATH to keep provenance elsewhere, or choose another --out folder"


def is_casegen_manifest(data: Any) -> bool:
    """True for the shape casegen writes: `{"version": N, "cases": {...}}` and nothing else.

    A web app's `public/manifest.json` (name, icons, ...) is someone else's file and must
    not be replaced."""
    return (
        isinstance(data, dict)
        and set(data) <= {"version", "cases"}
        and isinstance(data.get("cases"), dict)
        and isinstance(data.get("version", 1), int)
    )


def load_manifest(path: Path) -> Manifest:
    """The manifest at `path` (empty when there is none).

    Raises:
        ManifestError: the file is not valid JSON (e.g. merge-conflict markers), is not a
            casegen manifest, or has invalid entries. Nothing is overwritten then.
    """
    if not os.path.lexists(path):
        return Manifest()
    try:
        data = read_json(path)  # a FIFO, a device or a folder in its place is refused
    except UnreadableFile as exc:
        conflict = _has_conflict_markers(path)
        raise ManifestError(
            f"{exc}" + (" (it has merge-conflict markers)" if conflict else ""),
            hint="resolve the merge conflict in the manifest, then re-run" if conflict else _HINT,
        ) from None
    return manifest_from_data(path, data)


def manifest_from_data(path: Path, data: Any) -> Manifest:
    """The manifest `load_manifest(path)` gives when `read_json(path)` is `data`: for a
    caller that already read the file (`validate` searching a folder), so it is parsed once.

    Raises:
        ManifestError: `data` is not a casegen manifest, or has invalid entries.
    """
    if not is_casegen_manifest(data):
        raise ManifestError(
            f"{path} is not a casegen manifest (keys: {', '.join(map(str, data)) or 'none'})"
            if isinstance(data, dict)
            else f"{path} is not a casegen manifest",
            hint=_HINT,
        )
    try:
        return Manifest.model_validate(data)
    except ValidationError as exc:
        error = exc.errors()[0]
        where = "/".join(str(p) for p in error["loc"])
        raise ManifestError(
            f"{path} has an invalid entry at {where}: {error['msg']}",
            hint="fix or remove that entry; `casegen status` lists the cases it tracks",
        ) from None


def _has_conflict_markers(path: Path) -> bool:
    try:
        head = read_limited(path, 64 << 20)[: 1 << 20]
    except (RefusedFile, OSError):
        return False
    return any(line.startswith((b"<<<<<<< ", b">>>>>>> ")) for line in head.splitlines())


def save_manifest(path: Path, manifest: Manifest) -> None:
    payload: dict[str, Any] = manifest.model_dump(mode="json")
    for entry in payload["cases"].values():
        if entry.get("review") is None:
            entry.pop("review", None)  # unreviewed is the default; keep the file quiet
    payload["cases"] = dict(sorted(payload["cases"].items()))
    atomic_write_text(path, json.dumps(payload, indent=2, ensure_ascii=False) + "\n")


def relevant_sources(project: Project, dialect: str, source: str) -> dict[str, str]:
    """Hashes of the definition files a case for `source` depends on (the dialect says which:
    `Dialect.depends_on`)."""
    depends_on = get_dialect(dialect).depends_on
    return {s.path: s.sha256 for s in project.sources if depends_on(s.path, source)}
