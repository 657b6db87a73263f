"""Project kinds: how a folder is recognised as a project of a kind and which reader reads it.

`load_project` and `project_kind_of` ask this registry instead of keeping a table by kind.
It sits at the bottom of `evalcore.definitions` (it imports none of the readers), so a
dialect plugin above it registers the kind its cases test (`Dialect.project_reader`, added
here by `evalcore.dialects.register`) with no import circle. The built-in kinds are
registered beside their folder shapes (`_discover`), and their readers are imported only
when a project of their kind is read.

register_project_kind(ProjectReader(kind="notes", recognises=..., reader="pkg.mod:read"))
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from importlib import import_module
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from ._context import ReadContext


@dataclass(frozen=True)
class ProjectReader:
    """One kind of project: what its folder has, and the reader that fills `Project`."""

    kind: str
    """The kind's name (`Project.kind`, `Dialect.project_kind`)."""
    recognises: Callable[[Path], bool]
    """True when a folder is the root of a project of this kind (cheap: no file parsed)."""
    reader: str
    """`module:function` reading the project, `(ReadContext) -> definitions`; imported
    only when a project of this kind is read."""
    shape: str
    """What a project of this kind has, for the hint when a folder is no project."""
    attribute: str | None = None
    """The `Project` attribute its definitions fill; None: `Project.plugin_definitions[kind]`."""
    precedence: int = 10
    """Kinds are tried by precedence, then in the order registered: a marker file that
    settles the kind goes before a folder shape another kind may share."""

    def read(self, ctx: ReadContext) -> Any:
        """The definitions of the project `ctx` reads."""
        module, _, function = self.reader.partition(":")
        read: Callable[[ReadContext], Any] = getattr(import_module(module), function)
        return read(ctx)


_KINDS: dict[str, ProjectReader] = {}


def register_project_kind(reader: ProjectReader) -> ProjectReader:
    """Make a kind of project readable by its name (a later one of that name replaces it)."""
    _KINDS[reader.kind] = reader
    return reader


def project_kinds() -> list[ProjectReader]:
    """Every registered kind, in the order a folder is tried against them."""
    return sorted(_KINDS.values(), key=lambda r: r.precedence)


def project_shapes() -> str:
    """What a project folder has, one phrase per kind in the order registered (the hint
    when a folder is none)."""
    return "; ".join(r.shape for r in _KINDS.values())


def project_reader(kind: str) -> ProjectReader:
    """The reader of `kind` (KeyError when no kind of that name is registered)."""
    return _KINDS[kind]


__all__ = [
    "ProjectReader",
    "project_kinds",
    "project_reader",
    "project_shapes",
    "register_project_kind",
]
