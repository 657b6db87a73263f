"""Cases that already exist: the project's own suite and earlier output (for dedupe)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

from evalcore.dedupe import Fingerprint, fingerprint
from evalcore.definitions import Project
from evalcore.dialects import Dialect
from evalcore.documents import load_document

SUITE_FOLDERS = {"mantle": "eval/scenarios", "anychat": "cases"}


def suite_files(project: Project, dialect: Dialect) -> list[Path]:
    """The project's committed cases of this dialect."""
    if dialect.name == "base44":
        fixtures = project.agent_skills.fixtures if project.agent_skills else []
        return [project.root / f.path / "eval.json" for f in fixtures]
    folder = project.root / SUITE_FOLDERS[dialect.name]
    if not folder.is_dir():
        return []
    return sorted(p for p in folder.rglob("*") if p.suffix in dialect.suffixes and p.is_file())


def unit_fingerprints(path: Path, dialect: Dialect) -> Iterator[tuple[str, Fingerprint]]:
    """Fingerprints of the cases in one file (a base44 eval holds one per prompt)."""
    doc = load_document(path)
    if not isinstance(doc.data, dict):
        return
    if dialect.name == "base44":
        for entry in as_prompt_entries(doc.data):
            label = f"{path}#{entry.get('name', '?')}"
            yield label, fingerprint({"prompts": [entry]}, "base44")
    elif dialect.sniff(doc.data, path):
        yield str(path), fingerprint(doc.data, dialect.name)


def as_prompt_entries(data: dict[str, Any]) -> list[dict[str, Any]]:
    if isinstance(data.get("prompts"), list) and data["prompts"]:
        return [e for e in data["prompts"] if isinstance(e, dict)]
    if "prompt" in data:
        return [{k: data[k] for k in ("name", "prompt", "expectedSkills", "checks") if k in data}]
    return []
