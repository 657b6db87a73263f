"""Mantle `goals.assertions`: the exact assertion engine over the run's final event log.

Public because the generate flow's verifier asks whether a case is evaluated by this
evaluator before it reads the case's assertions one by one on the reference run."""

from __future__ import annotations

from typing import Any

from ...assertions import evaluate_mantle
from .._trace import RunTrace
from . import CheckResult, register_checks


@register_checks("mantle")
def mantle_checks(checks: Any, trace: RunTrace) -> list[CheckResult]:
    """`evaluate_mantle` on the authoritative log, or the runner's per-turn concatenation
    (which has a `user` event at each turn start, so `tools_within_one_turn` groups right)."""
    return evaluate_mantle(checks, list(trace.events))
