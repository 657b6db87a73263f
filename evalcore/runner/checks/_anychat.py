"""Anychat `expect.checks`: deterministic checks on what the agent sent, did and ended with.

The seed schema names the checks but not their meaning; each reading here is the one a case
author would expect, and docs/checks.md is the contract (what "final", "any turn" and "count"
mean). Evidence comes from the replies' `messages`, `events` and `state` and the final state,
in the shapes of docs/agent-protocol.md §1–3. A check that cannot be evaluated (a bad regex,
state the agent never reported) fails with the reason rather than passing silently.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ...suggest import did_you_mean
from .._trace import RunTrace
from . import CheckResult, register_checks
from . import _anychat_end_checks as _end_checks  # noqa: F401  (registers its checks)
from . import _anychat_turn_checks as _turn_checks  # noqa: F401  (registers its checks)
from ._anychat_evidence import Evidence, text_pieces, visible_text
from ._anychat_registry import _CHECKS

# --- entry point ----------------------------------------------------------------------------


def _type_name(kind: type | tuple[type, ...]) -> str:
    names = {
        bool: "true or false",
        int: "an integer",
        list: "a list",
        dict: "an object",
        str: "a string",
    }
    return names.get(kind, str(kind)) if isinstance(kind, type) else "a value"


def evaluate_one(
    index: int, name: str, value: Any, ev: Evidence, checks: Mapping[str, Any]
) -> CheckResult:
    """One `expect.checks` entry; an unknown name or a malformed value is a failed result."""
    entry = _CHECKS.get(name)
    if entry is None:
        hint = did_you_mean(name, _CHECKS, what="check")
        return CheckResult(
            index, name, False, f"unknown check '{name}'" + (f"; {hint}" if hint else "")
        )
    kind, fn = entry
    bad_int = kind is int and isinstance(value, bool)
    if not isinstance(value, kind) or bad_int:
        return CheckResult(index, name, False, f"expects {_type_name(kind)}, got {value!r}")
    verdict = fn(value, ev, checks)
    return CheckResult(index, name, verdict.passed, verdict.detail)


@register_checks("anychat")
def anychat_checks(checks: Any, trace: RunTrace) -> list[CheckResult]:
    """Every `expect.checks` entry, in the order written (docs/checks.md, Anychat)."""
    if not isinstance(checks, Mapping):
        return [CheckResult(0, "checks", False, "expect.checks must be an object")]
    ev = Evidence(trace)
    return [
        evaluate_one(i, str(name), value, ev, checks)
        for i, (name, value) in enumerate(checks.items())
    ]


def check_names() -> list[str]:
    return list(_CHECKS)


__all__ = [
    "Evidence",
    "anychat_checks",
    "check_names",
    "evaluate_one",
    "text_pieces",
    "visible_text",
]
