"""`load_project`: pick the reader for a folder's kind and hash its definition files."""

from __future__ import annotations

import importlib
from collections.abc import Callable
from pathlib import Path
from typing import Any

from ..errors import UserError
from ._context import ReadContext
from ._discover import project_kind_of
from ._model import Project, ProjectKind

#: Which reader (module, function) fills which `Project` attribute, by project kind: a
#: project is one kind, so only its reader is imported.
_READERS: dict[ProjectKind, tuple[str, str, str]] = {
    "mantle": ("mantle", "._mantle", "read_mantle"),
    "anychat": ("anychat", "._anychat", "read_anychat"),
    "agent_skills": ("agent_skills", "._agent_skills", "read_agent_skills"),
}


def _reader(kind: ProjectKind) -> tuple[str, Callable[[ReadContext], Any]]:
    attribute, module, function = _READERS[kind]
    return attribute, getattr(importlib.import_module(module, __package__), function)


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
    attribute, reader = _reader(kind)
    definitions = reader(ctx)
    return Project(
        root=root,
        kind=kind,
        sources=ctx.sources(),
        warnings=ctx.warnings,
        **{attribute: definitions},
    )
