"""Which agent a `--target SPEC` names.

Targets are built by `evalcore.agents.parse_target(spec)`; this module only adds a hook in
front of it: `register_target(scheme, factory)` makes `scheme:...` specs resolve to
`factory(spec)` first, so tests and embedding code can run cases against an in-process
target without a registry entry.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

from ..agents import AgentTarget, parse_target

if TYPE_CHECKING:
    from ..definitions import Project

TargetFactory = Callable[[str], Any]

_OVERRIDES: dict[str, TargetFactory] = {}


def register_target(scheme: str, factory: TargetFactory) -> None:
    """Resolve `scheme:...` (or exactly `scheme`) specs with `factory(spec)`."""
    _OVERRIDES[scheme] = factory


def unregister_target(scheme: str) -> None:
    _OVERRIDES.pop(scheme, None)


@contextmanager
def target_override(scheme: str, factory: TargetFactory) -> Iterator[None]:
    """`register_target` for the duration of a `with` block (tests)."""
    previous = _OVERRIDES.get(scheme)
    register_target(scheme, factory)
    try:
        yield
    finally:
        if previous is None:
            unregister_target(scheme)
        else:
            register_target(scheme, previous)


def resolve_target(
    spec: str, *, project: Project | None = None, timeout_s: float | None = None
) -> AgentTarget:
    """The target `spec` names.

    Args:
        project: The cases' project definitions (`rasa:` tells seed slots by them).
        timeout_s: The target's own limit for one request (None: its default).

    Raises:
        UserError: the spec names no known kind of target, or is malformed.
    """
    scheme = spec.split(":", 1)[0]
    factory = _OVERRIDES.get(scheme)
    if factory is not None:
        return factory(spec)
    return parse_target(spec, project=project, timeout_s=timeout_s)


__all__ = [
    "TargetFactory",
    "register_target",
    "resolve_target",
    "target_override",
    "unregister_target",
]
