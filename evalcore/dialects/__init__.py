"""Case dialects: Mantle scenario YAML, Anychat test-case JSON, base44 eval JSON.

from evalcore.dialects import get_dialect, detect_dialect
mantle = get_dialect("mantle")
"""

from __future__ import annotations

from importlib import import_module
from pathlib import Path
from typing import Any

from ..definitions import register_project_kind
from ..errors import UserError
from ..suggest import did_you_mean
from ._base import (
    END_STATE_CHECKS,
    EVENT_ASSERTIONS,
    WORKSPACE_CHECKS,
    CaseProse,
    Dialect,
    Provenance,
    load_entry,
)

_REGISTRY: dict[str, Dialect] = {}


def register(cls: type[Dialect]) -> type[Dialect]:
    """Class decorator: make a dialect available by its `name`, and the kind of project
    it brings (`Dialect.project_reader`) readable by `load_project`."""
    _REGISTRY[cls.name] = cls()
    if cls.project_reader is not None:
        register_project_kind(cls.project_reader)
    _BY_SUFFIX.clear()
    return cls


#: The dialects that ship with casegen: the one place a dialect is registered, by module
#: name. The registry imports them by name on first use, so the engine around it (and this
#: contract) depends on no plugin, while each plugin depends on the engine it plugs into.
BUILT_IN = ("evalcore.dialects.anychat", "evalcore.dialects.base44", "evalcore.dialects.mantle")


def _ensure_loaded() -> None:
    # Import all of them (once; an import costs a call into importlib each time, and every
    # file validated asks): importing one dialect package directly must not leave the
    # others unregistered.
    global _LOADED
    if not _LOADED:
        for module in BUILT_IN:
            import_module(module)  # registers itself (`@register`)
        _LOADED = True


_LOADED = False


def dialect_names() -> list[str]:
    _ensure_loaded()
    return sorted(_REGISTRY)


def get_dialect(name: str) -> Dialect:
    _ensure_loaded()
    try:
        return _REGISTRY[name]
    except KeyError:
        raise UserError(
            f"unknown dialect '{name}'",
            hint=did_you_mean(name, _REGISTRY, what="dialect"),
        ) from None


def all_dialects() -> list[Dialect]:
    _ensure_loaded()
    return [_REGISTRY[n] for n in sorted(_REGISTRY)]


def dialect_for_kind(kind: str | None) -> Dialect | None:
    """The dialect whose cases test a project of `kind` (`Dialect.project_kind`)."""
    return next((d for d in all_dialects() if d.project_kind == kind), None)


#: Suffix -> the dialects (in name order) whose files may have it: `detect_dialect` runs for
#: every file validated, and the list is the same for every file of a suffix.
_BY_SUFFIX: dict[str, list[Dialect]] = {}


def detect_dialect(data: Any, path: Path) -> Dialect | None:
    """The dialect whose shape `data` has, considering only dialects for the file's suffix."""
    suffix = path.suffix.lower()
    candidates = _BY_SUFFIX.get(suffix)
    if candidates is None:
        candidates = [d for d in all_dialects() if suffix in d.suffixes]
        _BY_SUFFIX[suffix] = candidates
    for dialect in candidates:
        if dialect.sniff(data, path):
            return dialect
    return None


def dialect_of(data: Any, path: Path, asked: str | None = None) -> Dialect | None:
    """The dialect a case file is read in: the one asked for, else the one its shape says
    (None when nothing parsed). Every command that reads a case chooses this way."""
    if asked:
        return get_dialect(asked)
    return detect_dialect(data, path) if data is not None else None


__all__ = [
    "BUILT_IN",
    "END_STATE_CHECKS",
    "EVENT_ASSERTIONS",
    "WORKSPACE_CHECKS",
    "CaseProse",
    "Dialect",
    "Provenance",
    "all_dialects",
    "detect_dialect",
    "dialect_for_kind",
    "dialect_names",
    "dialect_of",
    "get_dialect",
    "load_entry",
    "register",
]
