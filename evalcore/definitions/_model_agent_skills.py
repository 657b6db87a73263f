"""What an Agent Skills project defines: skills and base44 eval fixtures."""

from __future__ import annotations

from dataclasses import field
from typing import Any

from .._record import record
from ._model_base import _Model


@record
class SkillElement(_Model):
    """One thing a skill's files say (see `_agent_skill_contents` for the kinds)."""

    kind: str
    text: str
    file: str = "SKILL.md"
    """Relative to the skill folder (`SKILL.md`, `reference/guide.md`, `scripts/run.py`)."""
    line: int = 1
    detail: str = ""


@record
class AgentSkill(_Model):
    name: str
    """The folder name (must equal frontmatter `name`)."""
    path: str
    description: str | None = None
    frontmatter: dict[str, Any] = field(default_factory=dict)
    body: str = ""
    references: list[str] = field(default_factory=list)
    contents: list[SkillElement] = field(default_factory=list)
    """The body and every bundled file, element by element, with file and line."""


@record
class Base44Fixture(_Model):
    """A directory with an `eval.json` (and usually a `project/` the agent works in)."""

    path: str
    name: str | None = None
    project_dir: str | None = None
    skills: list[str] = field(default_factory=list)
    """Skill names the fixture carries in its own `skills/` folder."""


@record
class AgentSkillsDefinitions(_Model):
    skills: dict[str, AgentSkill] = field(default_factory=dict)
    fixtures: list[Base44Fixture] = field(default_factory=list)
