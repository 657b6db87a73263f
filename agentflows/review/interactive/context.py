"""Live, non-serialisable context of an interactive review (LangGraph `Runtime.context`).

It is passed again on every call, so a resumed review can use another editor or model than
the session that started it; everything that must survive a restart is in the state.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

import click

from .._model import ReviewModel
from .._review import Reviewer

#: `(text, file suffix) -> edited text`, or None when the reviewer left without saving.
Editor = Callable[[str, str], str | None]

DEFAULT_REVIEWS_DIR = Path(".casegen/reviews")


def external_editor(text: str, suffix: str) -> str | None:
    """Open `$VISUAL` / `$EDITOR` on a temporary copy (the case file is not touched)."""
    editor = os.environ.get("VISUAL") or os.environ.get("EDITOR")
    return click.edit(text, editor=editor, extension=suffix or ".txt", require_save=True)


def now_iso() -> str:
    return datetime.now(tz=UTC).replace(microsecond=0).isoformat().replace("+00:00", "Z")


@dataclass
class ReviewContext:
    """What the review's nodes use besides the state.

    Args:
        model: The model for "regenerate" (and the critique at load); None: rules only.
        editor: How "edit" gets the new text; tests inject a function.
        reviews_dir: Where `<review id>.json` decision records go.
        clock: The time stamp of each decision.
    """

    model: ReviewModel | None = None
    editor: Editor = external_editor
    reviews_dir: Path = DEFAULT_REVIEWS_DIR
    clock: Callable[[], str] = now_iso
    _reviewers: dict[str | None, Reviewer] = field(default_factory=dict, repr=False)

    def reviewer(self, project: str | None) -> Reviewer:
        """One `Reviewer` per project (projects are read once per session)."""
        if project not in self._reviewers:
            self._reviewers[project] = Reviewer(Path(project) if project else None)
        return self._reviewers[project]


__all__ = ["DEFAULT_REVIEWS_DIR", "Editor", "ReviewContext", "external_editor", "now_iso"]
