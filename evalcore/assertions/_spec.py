"""Reading assertion specs strictly.

An unknown key in a check (a typo such as `argumets:`) would otherwise be ignored, and the
check would pass on less than the author asked for. So each check names the keys it takes and
anything else is a `SpecError`.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from ._compare import show
from ._results import SpecError


def spec_map(
    kind: str, spec: Any, *, required: Iterable[str] = (), optional: Iterable[str] = ()
) -> Mapping[str, Any]:
    """`spec` as a mapping with all `required` keys and no keys outside required + optional."""
    required = tuple(required)
    allowed = set(required) | set(optional)
    if not isinstance(spec, Mapping):
        raise SpecError(
            f"{kind} takes a mapping with {', '.join(required) or 'keys'}, got {show(spec)}"
        )
    unknown = sorted(str(k) for k in spec if k not in allowed)
    if unknown:
        raise SpecError(
            f"{kind} does not take {', '.join(unknown)} (allowed: {', '.join(sorted(allowed))})"
        )
    missing = [k for k in required if k not in spec]
    if missing:
        raise SpecError(f"{kind} needs {', '.join(missing)}")
    return spec


def spec_str(kind: str, spec: Mapping[str, Any], key: str) -> str | None:
    """An optional non-empty string field (None when absent)."""
    if key not in spec:
        return None
    value = spec[key]
    if not isinstance(value, str) or not value:
        raise SpecError(f"{kind}.{key} must be a non-empty string, got {show(value)}")
    return value


def spec_bool(kind: str, spec: Mapping[str, Any], key: str) -> bool | None:
    if key not in spec:
        return None
    value = spec[key]
    if not isinstance(value, bool):
        raise SpecError(f"{kind}.{key} must be true or false, got {show(value)}")
    return value


def spec_items(kind: str, spec: Any) -> list[Mapping[str, Any]]:
    """The `[{name, value?}]` list of memory checks (non-empty, as Rasa requires)."""
    if not isinstance(spec, list) or not spec:
        raise SpecError(
            f"{kind} takes a non-empty list of {{name, value?}} items, got {show(spec)}"
        )
    return spec
