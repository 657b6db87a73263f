"""The drafting engine interface: offline and LLM engines are interchangeable."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any, Protocol

from pydantic import BaseModel, Field

from evalcore.definitions import Project
from evalcore.findings import Finding
from evalcore.llm.usage import Usage

from ..planning import Behavior


class DraftResult(BaseModel):
    """A drafted (or repaired) case document, or why there is none."""

    data: dict[str, Any] | None = None
    error: str | None = None
    usage: Usage = Field(default_factory=Usage)
    needs_review: str | None = None
    """Why the case is written for review, not as verified (no record of the project's
    data keeps it on its path), as the drafter knows it."""
    planned: dict[str, Any] | None = None
    """The offline plan's document a model's words were merged into (None: none), so
    telling the model's parts from the plan's needs no second plan of the case."""
    edits: list[dict[str, Any]] = Field(default_factory=list)
    """The behaviour's plan edits with their outcome (`accepted` / `refused` and why), as
    drafting judged them (`agentflows.drafting.llm._edits`)."""


@dataclass(frozen=True)
class DraftContext:
    """Everything an engine may use to write one case."""

    project: Project
    dialect: str
    behavior: Behavior
    direction: str | None = None
    siblings: tuple[str, ...] = field(default_factory=tuple)
    """Titles of the other planned cases, so an LLM keeps this one distinct."""
    verify_edit: Callable[[dict[str, Any], dict[str, Any]], Awaitable[str | None]] | None = None
    """Verifies a plan edit (the case before it, the case with it): None when the edited
    case passes where the case before it did, else why not. None: not verified."""
    accepted_edits: tuple[dict[str, Any], ...] | None = None
    """The plan edits a draft of the case accepted (a repair re-applies them without
    judging them again); None: judge the behaviour's."""
    planned: tuple[dict[str, Any], Any] | None = None
    """The planned case and its script when the flow already made them (looking for an
    earlier case asserting the same), so the draft does not plan the behaviour again."""


class DraftEngine(Protocol):
    """Writes cases from planned behaviours. `name` appears in every output it produces."""

    name: str
    """`offline` or `llm:<model>`."""
    model: str | None
    can_repair: bool
    """Whether `repair` can fix findings (the offline engine relies on deterministic repair)."""

    async def draft(self, ctx: DraftContext) -> DraftResult: ...

    async def repair(
        self, ctx: DraftContext, data: dict[str, Any], findings: list[Finding]
    ) -> DraftResult: ...

    async def refine_plan(
        self,
        project: Project,
        dialect: str,
        source: str,
        behaviors: list[Behavior],
        direction: str | None,
    ) -> tuple[list[Behavior], Usage]: ...
