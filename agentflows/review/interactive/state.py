"""Typed state of the interactive review (plain JSON-able dicts, so it checkpoints cleanly)."""

from __future__ import annotations

import operator
from typing import Annotated, Any, Literal, TypedDict

Action = Literal["accept", "reject", "edit", "regenerate"]
ACTIONS: tuple[Action, ...] = ("accept", "reject", "edit", "regenerate")
CaseStatus = Literal["pending", "accepted", "rejected"]


class CaseItem(TypedDict):
    """One case under review: the file as loaded and the candidate the reviewer sees."""

    path: str
    dialect: str | None
    original: str
    """The file's text when the review loaded it (an accept checks it is still there)."""
    text: str
    """The candidate: the original, or the last edit / regeneration."""
    data: Any
    """The candidate parsed (None when it does not parse)."""
    changed: bool
    findings: list[dict[str, Any]]
    """Validation findings of the candidate (JSON form)."""
    comments: list[dict[str, Any]]
    """Review comments on the candidate (JSON form)."""
    status: CaseStatus
    note: str | None
    """What the last action did, shown above the next prompt."""


class ReviewInput(TypedDict):
    review_id: str
    started_at: str
    paths: list[str]
    project: str | None


class ReviewState(ReviewInput, total=False):
    items: list[CaseItem]
    index: int
    """The case being reviewed (== len(items) when done)."""
    decision: dict[str, Any] | None
    """The reviewer's last answer: `{"action": ..., "reason"?, "comment"?}`."""
    decisions: Annotated[list[dict[str, Any]], operator.add]
    """Accepts and rejects so far: `{path, action, reason, changed, time}`."""
    record: str | None
    """Where the decision record is written."""
    done: bool


__all__ = ["ACTIONS", "Action", "CaseItem", "CaseStatus", "ReviewInput", "ReviewState"]
