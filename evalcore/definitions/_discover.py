"""Recognising project folders (without reading them fully), and the built-in kinds.

- mantle: `skills/<id>/skill.md` plus `agent.yml` or `integrations.yml` at the root;
- anychat: an `anychat.yml` at the root (tried first: the file settles the kind);
- agent_skills: `skills/<name>/SKILL.md` (base44 fixtures with their own skills too).

A dialect plugin registers the kind it brings itself (`kinds.register_project_kind`).
"""

from __future__ import annotations

from pathlib import Path

from .kinds import ProjectReader, project_kinds, register_project_kind


def _has_skill_files(folder: Path, filename: str) -> bool:
    skills = folder / "skills"
    if not skills.is_dir():
        return False
    # Exact-case match: Mantle uses skill.md, Agent Skills use SKILL.md.
    return any(
        child.is_dir() and filename in {p.name for p in child.iterdir()}
        for child in skills.iterdir()
    )


def _is_mantle(folder: Path) -> bool:
    return _has_skill_files(folder, "skill.md") and (
        (folder / "agent.yml").is_file() or (folder / "integrations.yml").is_file()
    )


def _is_anychat(folder: Path) -> bool:
    return (folder / "anychat.yml").is_file()


def _is_agent_skills(folder: Path) -> bool:
    return _has_skill_files(folder, "SKILL.md")


for _builtin in (
    ProjectReader(
        kind="mantle",
        recognises=_is_mantle,
        reader=f"{__package__}._mantle:read_mantle",
        shape="a Mantle project has agent.yml or integrations.yml and skills/<id>/skill.md",
        attribute="mantle",
        precedence=1,
    ),
    ProjectReader(
        kind="anychat",
        recognises=_is_anychat,
        reader=f"{__package__}._anychat:read_anychat",
        shape="an Anychat project has anychat.yml",
        attribute="anychat",
        precedence=0,
    ),
    ProjectReader(
        kind="agent_skills",
        recognises=_is_agent_skills,
        reader=f"{__package__}._agent_skills:read_agent_skills",
        shape="Agent Skills have skills/<name>/SKILL.md",
        attribute="agent_skills",
        precedence=2,
    ),
):
    register_project_kind(_builtin)


def project_kind_of(folder: Path) -> str | None:
    """The kind of project `folder` is the root of (a registered kind's name), or None."""
    if not folder.is_dir():
        return None
    return next((r.kind for r in project_kinds() if r.recognises(folder)), None)


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
