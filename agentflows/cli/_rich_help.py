"""typer's help formatter, imported without the two rich renderers casegen's help never uses.

`typer.rich_utils` imports `rich.markdown` (with markdown-it) and `rich.traceback` (with
pygments) at module level, a quarter of `casegen --help`'s CPU, though it only calls them
for `rich_markup_mode="markdown"` and for pretty tracebacks, both off here. While it is
imported, those two modules are stand-ins whose class loads the real one on first use;
afterwards they leave `sys.modules`, so any later `import rich.markdown` is the real module.
The help text is the same either way (`tests/test_startup_imports.py` compares it).
"""

from __future__ import annotations

import importlib
import sys
import types
from typing import Any

_DEFERRED = {"rich.markdown": "Markdown", "rich.traceback": "Traceback"}


class _Deferred(type):
    """A class that stands for `module.name`: calls and attributes go to the real class."""

    _module: str
    _name: str

    def _real(cls) -> Any:
        return getattr(importlib.import_module(cls._module), cls._name)

    def __call__(cls, *args: Any, **kwargs: Any) -> Any:
        return cls._real()(*args, **kwargs)

    def __getattr__(cls, attr: str) -> Any:
        if attr.startswith("__"):
            raise AttributeError(attr)
        return getattr(cls._real(), attr)


def import_rich_help() -> None:
    """Import `typer.rich_utils` (once) with `rich.markdown` and `rich.traceback` deferred."""
    if "typer.rich_utils" in sys.modules:
        return
    stand_ins: dict[str, types.ModuleType] = {}
    for module, name in _DEFERRED.items():
        if module in sys.modules:
            continue
        stand_in = types.ModuleType(module)
        setattr(stand_in, name, _Deferred(name, (), {"_module": module, "_name": name}))
        stand_ins[module] = stand_in
    sys.modules.update(stand_ins)
    try:
        importlib.import_module("typer.rich_utils")
    finally:
        for module, stand_in in stand_ins.items():
            if sys.modules.get(module) is stand_in:
                del sys.modules[module]


def wants_help(args: list[str]) -> bool:
    """Whether typer may print help for these arguments (no arguments, or a help flag)."""
    words = args[: args.index("--")] if "--" in args else args
    return not words or "--help" in words or "-h" in words


__all__ = ["import_rich_help", "wants_help"]
