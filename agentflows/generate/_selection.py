"""Which planned behaviours a run drafts: `--count`/`--types` select, a plain run spreads.

Shared by the flow's plan step and the early start of a run's first drafts (`_early`), so
both draft the same cases in the same order.
"""

from __future__ import annotations

from ..planning import Behavior, select, spread
from .context import GenerateRequest


def chosen(
    planned: list[list[Behavior]], request: GenerateRequest
) -> tuple[list[Behavior], list[Behavior]]:
    """The behaviours to draft, in plan order, and those a plain run left out to spread
    the suite over its skills."""
    picked: list[Behavior] = []
    for behaviors in planned:
        picked += select(behaviors, count=request.count, types=request.types)
    if request.count is None and not request.types and not request.direction:
        # what was asked for is kept whole; a plain run spreads its cases over the skills
        return spread(picked)
    return picked, []


__all__ = ["chosen"]
