"""The interactive review: one case at a time, stoppable and resumable.

    async with open_review(Path(".casegen/checkpoints.sqlite"), ReviewContext()) as review:
        prompt = await review.start(["generated_cases/mantle"], project=None)
        while prompt is not None:
            prompt = await review.decide({"action": "accept"})

Each question is a LangGraph `interrupt`; the SQLite checkpointer keeps the review between
sessions, so `open_review(..., review_id=ID)` then `await review.pending()` picks up at the
case the reviewer left, with every earlier decision kept.
"""

from __future__ import annotations

import secrets
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from langgraph.types import Command

from evalcore.errors import UserError
from evalcore.workdir import ensure_dir

from ..._store import open_store
from .context import DEFAULT_REVIEWS_DIR, Editor, ReviewContext, external_editor, now_iso
from .graph import build_graph
from .state import ACTIONS, CaseItem, ReviewState

DEFAULT_CHECKPOINTS = Path(".casegen/checkpoints.sqlite")


def new_review_id() -> str:
    return f"rev-{datetime.now(tz=UTC):%Y%m%d-%H%M%S}-{secrets.token_hex(2)}"


class InteractiveReview:
    """Drives one review thread: `start` (or `pending` after a resume), then `decide` until
    no question is left. Every method returns the next question, or None when done."""

    def __init__(self, graph: Any, context: ReviewContext, review_id: str) -> None:
        self.graph = graph
        self.context = context
        self.review_id = review_id

    @property
    def config(self) -> dict[str, Any]:
        return {"configurable": {"thread_id": self.review_id}, "recursion_limit": 10_000}

    async def exists(self) -> bool:
        snapshot = await self.graph.aget_state(self.config)
        return bool(snapshot.values)

    async def start(self, paths: list[str], *, project: str | None = None) -> dict[str, Any] | None:
        """Load the cases and return the first question."""
        payload = {
            "review_id": self.review_id,
            "started_at": now_iso(),
            "paths": paths,
            "project": project,
        }
        await self.graph.ainvoke(payload, self.config, context=self.context)
        return await self.pending()

    async def decide(self, decision: dict[str, Any]) -> dict[str, Any] | None:
        """Answer the pending question (`{"action": "accept" | "reject" | "edit" |
        "regenerate", "reason"?: str, "comment"?: str}`); returns the next one."""
        await self.graph.ainvoke(Command(resume=decision), self.config, context=self.context)
        return await self.pending()

    async def pending(self) -> dict[str, Any] | None:
        """The question waiting for an answer, finishing any step a stop cut short."""
        snapshot = await self.graph.aget_state(self.config)
        for interrupt in snapshot.interrupts:
            return dict(interrupt.value)
        if snapshot.next:
            await self.graph.ainvoke(None, self.config, context=self.context)
            return await self.pending()
        return None

    async def state(self) -> ReviewState:
        snapshot = await self.graph.aget_state(self.config)
        return snapshot.values  # type: ignore[no-any-return]


@asynccontextmanager
async def open_review(
    checkpoints: Path, context: ReviewContext, *, review_id: str | None = None, resume: bool = False
) -> AsyncIterator[InteractiveReview]:
    """A review bound to the SQLite checkpoint file (created if missing).

    Raises:
        UserError: `resume` is set and no review `review_id` is in the file.
    """
    ensure_dir(checkpoints.parent)
    async with open_store(checkpoints) as saver:
        graph = build_graph().compile(checkpointer=saver)
        review = InteractiveReview(graph, context, review_id or new_review_id())
        if resume and not await review.exists():
            raise UserError(
                f"no review '{review.review_id}' in {checkpoints}",
                hint="review ids are printed when a review starts and when it stops",
            )
        yield review


__all__ = [
    "ACTIONS",
    "DEFAULT_CHECKPOINTS",
    "DEFAULT_REVIEWS_DIR",
    "CaseItem",
    "Editor",
    "InteractiveReview",
    "ReviewContext",
    "ReviewState",
    "build_graph",
    "external_editor",
    "new_review_id",
    "open_review",
]
