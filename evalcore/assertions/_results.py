"""The small value types every Mantle check shares: a verdict, a result, a spec error."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


class SpecError(ValueError):
    """An assertion that cannot be evaluated as written (missing key, bad regex, …).

    Schema validation normally catches these first; the engine still reports them as a failed
    assertion with this message rather than crashing, so one bad item never hides the others.
    """


@dataclass(frozen=True)
class Verdict:
    """What one check decided and why; the reason is shown to people as is."""

    passed: bool
    detail: str
    invalid: bool = False
    """The check could not be judged: Rasa's engine raises on it (see `AssertionResult`)."""


@dataclass(frozen=True)
class AssertionResult:
    """The outcome of one item of `scenario.goals.assertions`."""

    index: int
    """Position in `goals.assertions` (0-based)."""
    type: str
    """The assertion key, e.g. `skill_completed` (`invalid` when the item has no single key)."""
    passed: bool
    detail: str
    """What was expected and, on failure, the closest recorded event."""
    invalid: bool = False
    """The assertion could not be judged, so it fails: Rasa's `evaluate_assertions` raises on
    it (a spec it refuses, or an input its engine crashes on), which errors the whole run."""

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "index": self.index,
            "type": self.type,
            "passed": self.passed,
            "detail": self.detail,
        }
        if self.invalid:
            out["invalid"] = True
        return out
