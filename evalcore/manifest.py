"""`generated_cases/manifest.json`: where every generated case came from.

One entry per case file: dialect, source, behaviour, engine and model, when, and the hashes
of the definition files it was generated from. `casegen status` compares those hashes with
the project today to find cases that went stale.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, Field

from .definitions import Project
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


def load_manifest(path: Path) -> Manifest:
    if not path.is_file():
        return Manifest()
    return Manifest.model_validate_json(path.read_text(encoding="utf-8"))


def save_manifest(path: Path, manifest: Manifest) -> None:
    payload: dict[str, Any] = manifest.model_dump(mode="json")
    for entry in payload["cases"].values():
        if entry.get("review") is None:
            entry.pop("review", None)  # unreviewed is the default; keep the file quiet
    payload["cases"] = dict(sorted(payload["cases"].items()))
    atomic_write_text(path, json.dumps(payload, indent=2, ensure_ascii=False) + "\n")


def relevant_sources(project: Project, dialect: str, source: str) -> dict[str, str]:
    """Hashes of the definition files a case for `source` depends on.

    Mantle: the skill's folder plus the project-wide memory, responses, tools and agent
    files; Anychat: the playbook plus the project-wide agent, people, tools and outreaches;
    base44: the agent skill's folder.
    """

    def wanted(path: str) -> bool:
        top = path.split("/", 1)[0]
        if dialect == "mantle":
            own_skill = path.startswith(f"skills/{source}/")
            project_wide = top not in ("skills", "eval")
            return own_skill or project_wide
        if dialect == "anychat":
            if top == "playbooks":
                return Path(path).stem == source
            return top != "cases"
        return path.startswith(f"skills/{source}/")

    return {s.path: s.sha256 for s in project.sources if wanted(s.path)}
