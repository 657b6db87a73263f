"""`load_project`: pick the reader for a folder's kind and hash its definition files."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from ..errors import UserError
from ._agent_skills import read_agent_skills
from ._anychat import read_anychat
from ._context import ReadContext
from ._discover import project_kind_of
from ._mantle import read_mantle
from ._model import Project, ProjectKind

#: Which reader fills which `Project` attribute, by project kind.
_READERS: dict[ProjectKind, tuple[str, Callable[[ReadContext], Any]]] = {
    "mantle": ("mantle", read_mantle),
    "anychat": ("anychat", read_anychat),
    "agent_skills": ("agent_skills", read_agent_skills),
}


def load_project(root: Path) -> Project:
    """Read the project rooted at `root` (raises UserError when it is not a project).

    Bad definition files never raise: their problems are in `Project.warnings`.
    `Project.sources` lists every definition file read, with its content hash.
    """
    root = Path(root)
    if not root.exists():
        raise UserError(f"project folder does not exist: {root}")
    kind = project_kind_of(root)
    if kind is None:
        raise UserError(
            f"{root} is not a project folder",
            hint=(
                "a Mantle project has agent.yml or integrations.yml and skills/<id>/skill.md; "
                "an Anychat project has anychat.yml; Agent Skills have skills/<name>/SKILL.md"
            ),
        )
    ctx = ReadContext(root=root.resolve())
    attribute, reader = _READERS[kind]
    definitions = reader(ctx)
    return Project(
        root=root,
        kind=kind,
        sources=ctx.sources(),
        warnings=ctx.warnings,
        **{attribute: definitions},
    )
