"""What a model is told about an agent skill: its SKILL.md, and every real id an eval may
use."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .._sources import first_sentence, read_definition

if TYPE_CHECKING:
    from ...definitions import AgentSkillsDefinitions, Project


def definition_text(project: Project, source: str) -> str:
    """The agent skill's SKILL.md as written (its parsed body where it cannot be read)."""
    agent_skill = _agent_skills(project).skills[source]
    return read_definition(project.root / agent_skill.path / "SKILL.md") or agent_skill.body


def definition_ids(project: Project, source: str) -> dict[str, Any]:
    return _ids(_agent_skills(project), source)


def _ids(defs: AgentSkillsDefinitions, source: str) -> dict[str, Any]:
    skill = defs.skills[source]
    return {
        "skill": source,
        "references": skill.references,
        "skills": [
            {"name": s.name, "description": first_sentence(s.description)}
            for s in defs.skills.values()
        ],
        "fixtures": [
            {"path": f.path, "name": f.name, "project_dir": f.project_dir, "skills": f.skills}
            for f in defs.fixtures
        ],
    }


def _agent_skills(project: Project) -> AgentSkillsDefinitions:
    if project.agent_skills is None:
        raise ValueError(f"{project.root} defines no agent skills")
    return project.agent_skills
