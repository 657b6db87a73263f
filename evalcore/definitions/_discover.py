"""Recognising project folders (without reading them fully)."""

from __future__ import annotations

from pathlib import Path

from ._model import ProjectKind


def _has_skill_files(folder: Path, filename: str) -> bool:
    skills = folder / "skills"
    if not skills.is_dir():
        return False
    # Exact-case match: Mantle uses skill.md, Agent Skills use SKILL.md.
    return any(
        child.is_dir() and filename in {p.name for p in child.iterdir()}
        for child in skills.iterdir()
    )


def project_kind_of(folder: Path) -> ProjectKind | None:
    """The kind of project `folder` is the root of, or None.

    - mantle: `skills/<id>/skill.md` plus `agent.yml` or `integrations.yml` at the root;
    - anychat: an `anychat.yml` at the root;
    - agent_skills: `skills/<name>/SKILL.md` (base44 fixtures with their own skills too).
    """
    if not folder.is_dir():
        return None
    if (folder / "anychat.yml").is_file():
        return "anychat"
    if _has_skill_files(folder, "skill.md") and (
        (folder / "agent.yml").is_file() or (folder / "integrations.yml").is_file()
    ):
        return "mantle"
    if _has_skill_files(folder, "SKILL.md"):
        return "agent_skills"
    return None


def find_project(start: Path, *, kind: str | None = None) -> Path | None:
    """The nearest folder at or above `start` that is a project (of `kind`, if given)."""
    current = start.resolve()
    if current.is_file():
        current = current.parent
    for folder in (current, *current.parents):
        found = project_kind_of(folder)
        if found is not None and (kind is None or found == kind):
            return folder
    return None
