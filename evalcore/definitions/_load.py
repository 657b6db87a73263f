"""`load_project`: ask the registry of project kinds for the folder's reader, and hash its
definition files."""

from __future__ import annotations

from pathlib import Path

from ..errors import UserError
from ._context import ReadContext
from ._discover import project_kind_of
from ._model import Project
from .kinds import project_reader, project_shapes


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
        raise UserError(f"{root} is not a project folder", hint=project_shapes())
    ctx = ReadContext(root=root.resolve())
    reader = project_reader(kind)
    definitions = reader.read(ctx)
    filled = (
        {reader.attribute: definitions}
        if reader.attribute
        else {"plugin_definitions": {kind: definitions}}
    )
    return Project(root=root, kind=kind, sources=ctx.sources(), warnings=ctx.warnings, **filled)
