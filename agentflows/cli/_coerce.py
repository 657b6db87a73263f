"""typer's option coercion for plain text and path options, without importing pydantic.

typer (0.29 on) coerces every option value through a pydantic `TypeAdapter`, so the first
parse of any command imports pydantic and builds its schema machinery: about half of a
light command's start-up (`validate`, `sources`) where casegen itself needs no pydantic.
For the option types whose coercion is plain (`str`, `pathlib.Path` and lists of them,
from command-line text or a default of that type; a `bool` that already is one) the value
is coerced here the way typer's adapters do it: the same text or flag, `Path(text)` (what
pydantic's `Path` validation returns), then typer's own path checks (`coerce_cli_path`:
exists, file/dir, readable, so the same messages). Any other type or value (numbers with
ranges, choices, files, bools that are not already bools) goes through typer's pydantic
adapter as before.
`tests/test_cli_coerce.py` compares both on the same values.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

_installed = False


def install() -> None:
    """Route typer's coercion of plain options through `_Plain` (once per process). If a
    typer release moves the pieces this needs, nothing is changed: typer coerces as it did."""
    global _installed
    if _installed:
        return
    try:
        from typer import core
        from typer._coercion import RuntimeParam, TypeDescriptor
        from typer._param_types import coerce_cli_path, routes_to_path
    except ImportError:
        return
    build = getattr(core, "build_runtime_param", None)
    if build is None:
        return

    @dataclass(frozen=True)
    class _Plain(RuntimeParam):
        """Coerces `str`/`Path` text (and lists of it) without pydantic; anything else
        goes to typer's own adapter for this parameter."""

        descriptor: TypeDescriptor
        kind: str

        def _one(self, value: Any, param: Any, ctx: Any) -> Any:
            if self.kind != "path":
                return value
            path = value if isinstance(value, Path) else Path(value)
            return coerce_cli_path(path, self.parameter_info, path_type=Path, param=param, ctx=ctx)

        def _plain(self, value: Any) -> bool:
            if self.kind == "bool":
                return type(value) is bool
            return type(value) is str or (self.kind == "path" and isinstance(value, Path))

        def _coerce_value(self, value: Any, param: Any, ctx: Any) -> Any:
            if self.descriptor.is_list:
                if isinstance(value, list | tuple) and all(self._plain(v) for v in value):
                    return [self._one(v, param, ctx) for v in value]
            elif self._plain(value):
                return self._one(value, param, ctx)
            return build(self.descriptor)._coerce_value(value, param=param, ctx=ctx)

    def plain_or_typer(descriptor: TypeDescriptor) -> RuntimeParam:
        kind = _plain_kind(descriptor, routes_to_path)
        if kind is None:
            return build(descriptor)
        return _Plain(
            parameter_info=descriptor.parameter_info,
            annotation=descriptor.annotation,
            descriptor=descriptor,
            kind=kind,
        )

    core.build_runtime_param = plain_or_typer
    _installed = True


def _plain_kind(descriptor: Any, routes_to_path: Any) -> str | None:
    """ "str", "bool" or "path" when typer would coerce this parameter with a bare `str`,
    `bool` or `Path` adapter (no parser, no file, no choices), else None."""
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
    if annotation is str and not routes_to_path(annotation, info):
        return "str"
    if annotation is bool and not descriptor.is_list:
        return "bool"
    path_type = getattr(info, "path_type", None)
    if annotation is Path and path_type in (None, Path) and routes_to_path(annotation, info):
        return "path"
    return None


__all__ = ["install"]
