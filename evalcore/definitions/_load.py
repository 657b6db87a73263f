"""`load_project`: pick the reader for a folder's kind and hash its definition files."""

from __future__ import annotations

from pathlib import Path

from ..errors import UserError
from ._discover import project_kind_of
from ._model import Project


def load_project(root: Path) -> Project:
    """Read the project rooted at `root` (raises UserError when it is not a project)."""
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
    raise NotImplementedError(f"reader for {kind} projects")  # filled in by the readers
