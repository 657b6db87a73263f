"""What `casegen status` reports about each generated case."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field

Status = Literal["fresh", "stale", "broken", "edited", "missing"]
#: Worst first: a case shows the first status that applies.
STATUS_ORDER: tuple[Status, ...] = ("missing", "broken", "stale", "edited", "fresh")


class SourceChange(BaseModel):
    """A definition file the case depends on that differs from generation time."""

    path: str
    """Project-relative, as recorded in the manifest."""
    change: Literal["changed", "removed", "added"]


class UnknownId(BaseModel):
    """An id the case refers to that today's project no longer defines."""

    code: str
    """`unknown-skill`, `unknown-response`, `unknown-tool`, ..."""
    path: str
    """JSON Pointer into the case (as in `casegen validate` findings)."""
    line: int | None = None
    value: object = None
    message: str
    suggestion: str | None = None


class CaseState(BaseModel):
    path: str
    """The case file, relative to the current folder."""
    key: str
    """The case's key in the manifest (relative to the manifest's folder)."""
    source: str
    dialect: str
    project: str
    """The project folder, relative to the current folder."""
    status: Status
    changed_sources: list[SourceChange] = Field(default_factory=list)
    unknown_ids: list[UnknownId] = Field(default_factory=list)
    edited: bool = False
    """The file differs from what was generated (a person edited it)."""
    reasons: list[str] = Field(default_factory=list)
    """One line per reason, for people."""


class StatusReport(BaseModel):
    manifest: str
    cases: list[CaseState] = Field(default_factory=list)
    hints: list[str] = Field(default_factory=list)

    @property
    def summary(self) -> dict[str, int]:
        counts = {status: 0 for status in STATUS_ORDER}
        for case in self.cases:
            counts[case.status] += 1
        return {"cases": len(self.cases), **counts}

    @property
    def ok(self) -> bool:
        """Nothing stale or broken (edited and missing cases are the person's choice)."""
        return not any(c.status in ("stale", "broken") for c in self.cases)

    def to_json(self) -> dict[str, object]:
        return {
            "manifest": self.manifest,
            "cases": [c.model_dump(mode="json") for c in self.cases],
            "summary": self.summary,
            "hints": self.hints,
        }
