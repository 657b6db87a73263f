"""The table of Anychat checks: each check module registers its checks here by name, with
the type of value it expects, in the order docs/checks.md lists them."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from ...assertions import Verdict
from ._anychat_evidence import Evidence

Check = Callable[[Any, Evidence, Mapping[str, Any]], Verdict]
_CHECKS: dict[str, tuple[type | tuple[type, ...], Check]] = {}


def _check(name: str, kind: type | tuple[type, ...]) -> Callable[[Check], Check]:
    def register(fn: Check) -> Check:
        _CHECKS[name] = (kind, fn)
        return fn

    return register


__all__ = ["_CHECKS", "Check", "_check"]
