"""Verdicts: what the judge decides per criterion, and how a run counts them.

`inconclusive` is its own state (the conversation did not show enough to decide) and
`unjudged` means no judge ran (no model configured, or the run errored first). Only `pass`
counts as passed; an unjudged criterion is never silently turned into a pass.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

JudgedVerdict = Literal["pass", "fail", "inconclusive"]
VerdictName = Literal["pass", "fail", "inconclusive", "unjudged"]


class CriterionResult(BaseModel):
    """The outcome of one criterion of one run."""

    model_config = ConfigDict(extra="forbid")

    index: int
    """1-based, as the judge saw the criteria numbered."""
    id: str
    """The case's own id (Anychat `criteria[].id`; the position for Mantle)."""
    criterion: str
    verdict: VerdictName
    reason: str
    votes: dict[str, int] = Field(default_factory=dict)
    """With `--judge-samples K`: how many samples gave each verdict."""
    disagreement: bool = False
    """The samples did not all agree."""

    @property
    def passed(self) -> bool:
        return self.verdict == "pass"

    def to_json(self) -> dict[str, object]:
        data = self.model_dump()
        data["passed"] = self.passed
        return data


__all__ = ["CriterionResult", "JudgedVerdict", "VerdictName"]
