"""typer's option coercion for plain text and path options, without importing pydantic.

typer (0.29 on) coerces every option value through a pydantic `TypeAdapter`, so the first
parse of any command imports pydantic and builds its schema machinery: about half of a
light command's start-up (`validate`, `sources`) where casegen itself needs no pydantic.
For the option types whose coercion is plain (`str`, `pathlib.Path` and lists of them,
from command-line text or a default of that type; a `bool` that already is one) the value
is coerced here the way typer's adapters do it: the same text or flag, `Path(text)` (what
pydantic's `Path` validation returns). Any other type or value (numbers with ranges,
choices, files, bools that are not already bools, a path option with checks, a path that
exists but cannot be read: typer's own message) goes through typer's pydantic adapter as
before. `tests/test_cli_coerce.py` compares both on the same values.

typer offers no public hook for coercion, so this uses public names only: the
`build_runtime_param` attribute of `typer.core` (which builds each parameter's coercer)
and the attributes of the descriptor it is given; what it returns is duck-typed, with the
one method typer calls on it, `coerce(value, param=, ctx=)`. If a typer release moves that
attribute, nothing is changed: typer coerces as it did.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from typer import core as typer_core

_installed = False


def install() -> None:
    """Route typer's coercion of plain options through `_Plain` (once per process)."""
    global _installed
    if _installed:
        return
    build = getattr(typer_core, "build_runtime_param", None)
    if build is None:
        return

    def plain_or_typer(descriptor: Any) -> Any:
        kind = _plain_kind(descriptor)
        return build(descriptor) if kind is None else _Plain(descriptor, kind, build)

    plain_or_typer.__wrapped__ = build  # type: ignore[attr-defined]
    typer_core.build_runtime_param = plain_or_typer
    _installed = True


@dataclass(frozen=True)
class _Plain:
    """Coerces `str`/`Path` text (and lists of it) and `bool` flags without pydantic;
    anything else goes to typer's own coercer for this parameter (`build`)."""

    descriptor: Any
    kind: str
    build: Callable[[Any], Any]

    def coerce(self, value: Any, param: Any, ctx: Any) -> Any:
        """What typer's coercer returns for `value` (a missing value is `None`, or `()`
        for an option that takes many)."""
        if value is None:
            return () if param.multiple or param.nargs == -1 else None
        if self.descriptor.is_list:
            if isinstance(value, list | tuple) and all(self._plain(v) for v in value):
                return [self._one(v) for v in value]
        elif self._plain(value):
            return self._one(value)
        return self.build(self.descriptor).coerce(value, param=param, ctx=ctx)

    def _one(self, value: Any) -> Any:
        if self.kind != "path":
            return value
        return value if isinstance(value, Path) else Path(value)

    def _plain(self, value: Any) -> bool:
        if self.kind == "bool":
            return type(value) is bool
        if self.kind == "str":
            return type(value) is str
        if not (type(value) is str or isinstance(value, Path)):
            return False
        # typer's one check a path option without options of its own makes: an existing
        # path must be readable (its message, then, is typer's)
        path = Path(value)  # "" is `.`, as typer checks it
        readable = not self.descriptor.parameter_info.readable or not os.path.exists(path)
        return readable or os.access(path, os.R_OK)


#: A path option's settings under which typer's path checks do nothing but the readable one
#: (typer's defaults): `_Plain` makes that one check itself.
_PATH_DEFAULTS = (
    *(("exists", False), ("file_okay", True), ("dir_okay", True), ("writable", False)),
    *(("resolve_path", False), ("allow_dash", False), ("path_type", None)),
)


def _plain_kind(descriptor: Any) -> str | None:
    """ "str", "bool" or "path" when typer would coerce this parameter with a bare `str`,
    `bool` or `Path` adapter (no parser, no file, no choices, no path checks), else None."""
    info = descriptor.parameter_info
    if descriptor.file_annotation is not None or getattr(info, "parser", None) is not None:
        return None
    annotation = descriptor.annotation
    if descriptor.is_list:
        args = getattr(annotation, "__args__", ())
        if len(args) != 1:
            return None
        annotation = args[0]
    if descriptor.is_choice or descriptor.is_tuple or descriptor.is_ranged:
        return None
    if annotation is str:
        return "str"
    if annotation is bool and not descriptor.is_list:
        return "bool"
    defaults = all(getattr(info, name, None) == value for name, value in _PATH_DEFAULTS)
    if annotation is Path and defaults:
        return "path"
    return None


__all__ = ["install"]
