"""The Agent Skills reader (base44): `skills/<name>/SKILL.md` and base44 eval fixtures.

A skill is YAML frontmatter plus a markdown body, with optional `references/*.md`; the body
and every bundled file are read whole into `AgentSkill.contents` (`_agent_skill_contents`).
A fixture is any folder under the project holding an `eval.json` (dot-folders skipped, no
descent below a fixture, sorted), with the agent's working copy in `project/` and optionally its
own `skills/`, which count as skills of the project too (a root skill of the same name wins).
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path
from typing import Any

from .._readbytes import RefusedFile, describe, read_limited
from ._agent_skill_contents import skill_contents
from ._context import ReadContext
from ._frontmatter import split_frontmatter
from ._model_agent_skills import (
    AgentSkill,
    AgentSkillsDefinitions,
    Base44Fixture,
    SkillElement,
)

FRONTMATTER_KEYS = {
    "name",
    "description",
    "license",
    "compatibility",
    "metadata",
    "allowed-tools",
    "disable-model-invocation",
}
_NAME = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")
_MAX_NAME, _MAX_DESCRIPTION = 64, 1024
#: Folders never searched for fixtures (besides dot-folders).
_SKIP_DIRS = {"node_modules", "__pycache__"}


def read_agent_skills(ctx: ReadContext) -> AgentSkillsDefinitions:
    defs = AgentSkillsDefinitions(skills=_read_skill_folder(ctx, ctx.root / "skills"))
    for folder in find_fixture_dirs(ctx.root):
        fixture = _read_fixture(ctx, folder)
        defs.fixtures.append(fixture)
        for name, skill in _read_skill_folder(ctx, folder / "skills").items():
            defs.skills.setdefault(name, skill)
    return defs


def find_fixture_dirs(root: Path) -> list[Path]:
    """Folders holding an `eval.json`, sorted; their sub-folders are not searched."""
    found: list[Path] = []
    for current, dirs, files in os.walk(root):
        if "eval.json" in files:
            found.append(Path(current))
            dirs[:] = []
            continue
        dirs[:] = sorted(d for d in dirs if not d.startswith(".") and d not in _SKIP_DIRS)
    return sorted(found)


# --- skills -----------------------------------------------------------------------------


def _listed(path: Path) -> bool:
    """A SKILL.md is there (a file, or something in its place that its reader refuses)."""
    return os.path.lexists(path)


def _read_skill_folder(ctx: ReadContext, folder: Path) -> dict[str, AgentSkill]:
    skills: dict[str, AgentSkill] = {}
    if not folder.is_dir():
        return skills
    for child in sorted(folder.iterdir()):
        if child.is_dir() and not child.name.startswith(".") and _listed(child / "SKILL.md"):
            skills[child.name] = _read_skill(ctx, child)
    return skills


def _read_skill(ctx: ReadContext, folder: Path) -> AgentSkill:
    path = folder / "SKILL.md"
    text = ctx.read_text(path)
    if text is None:  # unreadable: already warned about
        return AgentSkill(name=folder.name, path=ctx.rel(folder))
    split = split_frontmatter(text, filename="SKILL.md")
    if split.problem is not None:
        ctx.warn(path, *split.problem)
    frontmatter: dict[str, Any] = {}
    description_line = 1
    if split.frontmatter is not None:
        doc = ctx.parse_yaml(split.frontmatter, path, line_offset=split.frontmatter_offset)
        if isinstance(doc.data, dict):
            frontmatter = doc.data
            ctx.warn_unknown_keys(doc, frontmatter, FRONTMATTER_KEYS, (), "SKILL.md frontmatter")
            _check_name(ctx, path, ctx.line(doc, "name"), frontmatter.get("name"), folder.name)
            description_line = ctx.line(doc, "description") or 1
            _check_description(ctx, path, description_line, frontmatter.get("description"))
        elif doc.data is not None:
            ctx.warn(path, 2, "SKILL.md frontmatter must be a YAML mapping")
    description = frontmatter.get("description")
    return AgentSkill(
        name=folder.name,
        path=ctx.rel(folder),
        description=str(description) if description is not None else None,
        frontmatter=frontmatter,
        body=split.body,
        references=_references(ctx, folder),
        contents=[
            *(
                [SkillElement(kind="description", text=str(description), line=description_line)]
                if description is not None
                else []
            ),
            *skill_contents(ctx, folder, split.body, split.body_first_line),
        ],
    )


def _check_name(ctx: ReadContext, path: Path, line: int | None, name: Any, folder: str) -> None:
    if name is None:
        ctx.warn(path, line, "SKILL.md frontmatter has no 'name'")
        return
    if name != folder:
        ctx.warn(path, line, f"frontmatter name '{name}' differs from the folder name '{folder}'")
    if not isinstance(name, str) or len(name) > _MAX_NAME or not _NAME.match(name):
        ctx.warn(
            path,
            line,
            f"skill name '{name}' must be ≤{_MAX_NAME} characters of a-z, 0-9 "
            "and single inner hyphens",
        )


def _check_description(ctx: ReadContext, path: Path, line: int | None, text: Any) -> None:
    if not isinstance(text, str) or not text.strip():
        ctx.warn(path, line, "SKILL.md frontmatter needs a 'description' with trigger phrases")
    elif len(text) > _MAX_DESCRIPTION or "<" in text or ">" in text:
        ctx.warn(path, line, f"description must be ≤{_MAX_DESCRIPTION} characters without < or >")


def _references(ctx: ReadContext, folder: Path) -> list[str]:
    """`references/*.md`, relative to the skill folder; hashed as sources (they define it)."""
    refs = sorted((folder / "references").glob("*.md")) if (folder / "references").is_dir() else []
    for ref in refs:
        ctx.read_text(ref)
    return [ref.relative_to(folder).as_posix() for ref in refs]


# --- fixtures ---------------------------------------------------------------------------


def _read_fixture(ctx: ReadContext, folder: Path) -> Base44Fixture:
    """A fixture's name and layout; its eval.json is a case file, so it is not a source."""
    path = folder / "eval.json"
    name = None
    try:
        elsewhere = ctx.outside(path)
        if elsewhere is not None:
            raise RefusedFile(f"it is a link to {elsewhere}, outside the project")
        data = json.loads(read_limited(path, ctx.limits(path)).decode("utf-8"))
    except OSError as exc:
        ctx.warn(path, None, f"eval.json cannot be read: {describe(exc)}")
    except (ValueError, RecursionError) as exc:  # bad JSON, bad UTF-8, a huge integer
        line = getattr(exc, "lineno", None)
        ctx.warn(path, line, f"eval.json cannot be read: {exc}")
    else:
        if isinstance(data, dict) and isinstance(data.get("name"), str):
            name = data["name"]
        else:
            ctx.warn(path, 1, "eval.json has no 'name'")
    skills_dir = folder / "skills"
    skills = (
        sorted(c.name for c in skills_dir.iterdir() if (c / "SKILL.md").is_file())
        if skills_dir.is_dir()
        else []
    )
    return Base44Fixture(
        path=ctx.rel(folder),
        name=name,
        project_dir=ctx.rel(folder / "project") if (folder / "project").is_dir() else None,
        skills=skills,
    )
