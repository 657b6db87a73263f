"""The offline drafter: deterministic cases from the plan, no model, no network.

Same project + same plan + same direction + same generation day (`SOURCE_DATE_EPOCH`
pins it) → byte-identical cases. Each dialect has its own
drafter module; all of them write only ids and values that exist in the project.

The person's direction, parsed (`parse_direction`, `Direction`, `Choice`), and the value
words it is read with are offered here too: every dialect's planner reads the direction
the same way its drafter does (`_direction`).
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Any

from evalcore.definitions import Project
from evalcore.dialects import get_dialect, load_entry
from evalcore.errors import UserError
from evalcore.findings import Finding

from ...planning import Behavior
from .._engine import DraftContext, DraftResult, Usage
from ._direction import (
    Choice,
    Direction,
    best_value,
    content_stems,
    match_values,
    parse_direction,
    value_phrases,
    value_words,
)


def _drafter(dialect: str) -> Callable[[DraftContext], Any]:
    """The dialect's drafter (`Dialect.offline_drafter`, imported only when that dialect is
    drafted): it returns the document, or `(document, needs-review reason)` where the
    drafter also says why a case needs review."""
    entry = get_dialect(dialect).offline_drafter
    if entry is None:
        raise UserError(f"casegen has no offline drafter for {dialect} cases")
    drafter: Callable[[DraftContext], Any] = load_entry(entry)
    return drafter


def _drafted(ctx: DraftContext) -> DraftResult:
    """The offline draft of `ctx`, with the drafter's needs-review reason where it has one."""
    drafted = _drafter(ctx.dialect)(ctx)
    if isinstance(drafted, tuple):
        data, reason = drafted
        return DraftResult(data=data, needs_review=reason)
    return DraftResult(data=drafted)


class OfflineEngine:
    """Deterministic drafting engine (the default when no model is configured)."""

    name = "offline"
    model: str | None = None
    can_repair = False

    async def draft(self, ctx: DraftContext) -> DraftResult:
        return _drafted(ctx)

    async def repair(
        self, ctx: DraftContext, data: dict[str, Any], findings: list[Finding]
    ) -> DraftResult:
        return DraftResult(data=None, error="the offline engine has no model to repair with")

    async def refine_plan(
        self,
        project: Project,
        dialect: str,
        source: str,
        behaviors: list[Behavior],
        direction: str | None,
    ) -> tuple[list[Behavior], Usage]:
        return behaviors, Usage()


#: What the Mantle drafter offers other flows, each loaded on first use as the drafters are:
#: the name and the module that defines it.
_MANTLE_OFFERS = {
    # what of a Mantle run a case may assert, read as the drafter reads outside answers
    "answer_marks": "._mantle_answers",
    # whether a value is exact (an id, code, number or yes/no a case may assert as said)
    "exact": "._mantle_exact",
    # the drafted document and the script it was written from (the LLM drafter's plan)
    "draft_mantle_scripted": "._mantle",
    # a skill's rules that hold on a path, and up to `limit` of them, the topic's first
    "prose_rules": "._mantle_criteria",
    "pick": "._mantle_criteria",
}


def __getattr__(name: str) -> Any:
    """What the Mantle drafter offers (`_MANTLE_OFFERS`), loaded on first use."""
    if name in _MANTLE_OFFERS:
        return getattr(importlib.import_module(_MANTLE_OFFERS[name], __package__), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = [
    "Choice",
    "Direction",
    "OfflineEngine",
    "answer_marks",
    "best_value",
    "content_stems",
    "draft_mantle_scripted",
    "exact",
    "match_values",
    "parse_direction",
    "pick",
    "prose_rules",
    "value_phrases",
    "value_words",
]
