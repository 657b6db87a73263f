"""Deterministic assertions against a recorded conversation (Rasa Mantle semantics).

    from evalcore.assertions import evaluate_mantle, parse_events
    results = evaluate_mantle(scenario["goals"]["assertions"], tracker)
    assert all(r.passed for r in results)

`events` may be a tracker object (`{"events": [...]}`), a bare event list, or events already
parsed with `parse_events`. Verdicts are the ones Rasa's own `evaluate_assertions` gives
(checked by `python -m benchmarks rasa-oracle assertions`). An event Rasa's reader skips is
skipped; a log Rasa's reader would crash on raises `evalcore.errors.UserError`; an assertion
Rasa raises on is a failed result marked `invalid`, so one typo never hides the other checks.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from . import _bot  # noqa: F401  (registers bot_uttered and bot_did_not_utter)
from ._events import Event, parse_events
from ._mantle import check_names, compiled, evaluate_one, mantle_check
from ._results import AssertionResult, Verdict
from ._sequencing import (
    SEQUENCING_MAP_STEPS,
    SEQUENCING_NAME_STEPS,
    SEQUENCING_STEPS,
    sequencing_step_problem,
)


def evaluate_mantle(assertions: Sequence[Any] | None, events: Any) -> list[AssertionResult]:
    """Evaluate `goals.assertions` against recorded events; one result per item, in order."""
    if isinstance(events, Sequence) and events and all(isinstance(e, Event) for e in events):
        parsed: Sequence[Event] = tuple(events)
    else:
        parsed = parse_events(events)
    return [evaluate_one(index, item, parsed) for index, item in enumerate(assertions or [])]


__all__ = [
    "SEQUENCING_MAP_STEPS",
    "SEQUENCING_NAME_STEPS",
    "SEQUENCING_STEPS",
    "AssertionResult",
    "Event",
    "Verdict",
    "check_names",
    "compiled",
    "evaluate_mantle",
    "evaluate_one",
    "mantle_check",
    "parse_events",
    "sequencing_step_problem",
]
