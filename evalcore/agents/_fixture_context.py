"""What a base44 fixture's run needs from outside the fixture, resolved once, shippable.

A command agent's run reads more than the fixture folder: the nearest settings file
(`max_output_bytes`, `pass_env`, the skills' detection vocabulary) and the project's Agent
Skills, which the original base44 setup copies into the agent's `project/skills/`. Locally
these are found by walking up from the case file; a run on another machine (the Ray executor)
gets them resolved by the driver in `setup["fixture_context"]`, so the worker never looks
for files that exist only on the driver.

Skill installation: every skill of the project (`<project>/skills/<name>/SKILL.md`, then the
fixture's own `skills/` for names the project lacks, as `casegen sources` lists them) is
copied into the agent's copy of `project/` under each of `SKILL_DESTINATIONS`: `skills/`,
where the original setup puts them, and `.claude/skills/`, where Claude Code reads project
skills natively. A skill the fixture's project already holds at a destination is left as the
fixture has it.

The project is the one the runner found for the case (`setup["skills_project"]`: `--project`,
else the enclosing one, else the one a generated case's manifest names), so a fixture kept
outside its project (`generate --out DIR`, a copy) gets the same skills; without it, the
Agent Skills project above the fixture.
"""

from __future__ import annotations

import shutil
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ._procs import exec_settings
from ._skills import load_vocabulary

#: Where, inside the agent's project copy, the skills are installed.
SKILL_DESTINATIONS = ("skills", ".claude/skills")
CONTEXT_KEY = "fixture_context"
#: `setup` key: the Agent Skills project whose skills a case's agent gets (set by the runner).
SKILLS_PROJECT_KEY = "skills_project"


def skill_sources(fixture: str | Path, project: str | Path | None = None) -> dict[str, Path]:
    """name → skill folder: the project's skills first (`project`, else the Agent Skills
    project above the fixture), then the fixture's own."""
    from ..definitions import find_project  # start-up: yaml and 34 casegen modules

    fixture = Path(fixture).resolve()
    sources: dict[str, Path] = {}
    root = Path(project) if project else find_project(fixture.parent, kind="agent_skills")
    folders = ([root / "skills"] if root is not None else []) + [fixture / "skills"]
    for folder in folders:
        if not folder.is_dir():
            continue
        for child in sorted(folder.iterdir()):
            if child.is_dir() and not child.is_symlink() and (child / "SKILL.md").is_file():
                sources.setdefault(child.name, child)
    return sources


def _links(folder: str, names: list[str]) -> list[str]:
    """Links in a skill folder are left out: they could point anywhere on the machine."""
    return [n for n in names if (Path(folder) / n).is_symlink()]


@dataclass(frozen=True)
class FixtureContext:
    """Settings and skills for the runs of one fixture."""

    max_output_bytes: int
    pass_env: list[str] = field(default_factory=list)
    vocabulary: dict[str, list[str]] = field(default_factory=dict)
    skills: dict[str, str] = field(default_factory=dict)
    """name → folder holding the skill's SKILL.md (and its references)."""

    @classmethod
    def resolve(
        cls, fixture: str | Path, case_path: str | None = None, project: str | None = None
    ) -> FixtureContext:
        """Look everything up from the files around the fixture (and the case file); the
        skills from `project` when the runner named one."""
        max_output_bytes, pass_env = exec_settings(case_path or fixture)
        return cls(
            max_output_bytes=max_output_bytes,
            pass_env=pass_env,
            vocabulary=load_vocabulary(fixture),
            skills={name: str(path) for name, path in skill_sources(fixture, project).items()},
        )

    @classmethod
    def for_case(cls, case: Any) -> FixtureContext:
        """The context the driver shipped with the case, else resolved here."""
        setup = getattr(case, "setup", None) or {}
        shipped = setup.get(CONTEXT_KEY)
        if isinstance(shipped, dict):
            return cls.from_json(shipped)
        return cls.resolve(
            setup["fixture"], getattr(case, "path", None), setup.get(SKILLS_PROJECT_KEY)
        )

    def to_json(self) -> dict[str, Any]:
        return {
            "max_output_bytes": self.max_output_bytes,
            "pass_env": list(self.pass_env),
            "vocabulary": {k: list(v) for k, v in self.vocabulary.items()},
            "skills": dict(self.skills),
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> FixtureContext:
        return cls(
            max_output_bytes=int(data["max_output_bytes"]),
            pass_env=list(data.get("pass_env") or []),
            vocabulary={k: list(v) for k, v in (data.get("vocabulary") or {}).items()},
            skills={k: str(v) for k, v in (data.get("skills") or {}).items()},
        )

    def install_skills(self, workdir: Path) -> list[str]:
        """Copy the skills into `workdir` (the agent's project copy); the names installed."""
        installed: list[str] = []
        for name, source in sorted(self.skills.items()):
            source_path = Path(source)
            if not (source_path / "SKILL.md").is_file():
                continue
            for destination in SKILL_DESTINATIONS:
                target = workdir / destination / name
                if target.exists():  # the fixture's project ships its own copy: keep it
                    continue
                shutil.copytree(source_path, target, ignore=_links)
                if name not in installed:
                    installed.append(name)
        return installed


__all__ = [
    "CONTEXT_KEY",
    "SKILLS_PROJECT_KEY",
    "SKILL_DESTINATIONS",
    "FixtureContext",
    "skill_sources",
]
