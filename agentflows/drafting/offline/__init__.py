"""The offline drafter: deterministic cases from the plan, no model, no network.

Same project + same plan + same direction → byte-identical cases. Each dialect has its own
drafter module; all of them write only ids and values that exist in the project.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from evalcore.definitions import Project
from evalcore.findings import Finding

from ...planning import Behavior
from .._engine import DraftContext, DraftResult, Usage

Drafter = Callable[[DraftContext], dict[str, Any]]


def _drafters() -> dict[str, Drafter]:
    from ._anychat import draft_anychat
    from ._base44 import draft_base44
    from ._mantle import draft_mantle

    return {"mantle": draft_mantle, "anychat": draft_anychat, "base44": draft_base44}


class OfflineEngine:
    """Deterministic drafting engine (the default when no model is configured)."""

    name = "offline"
    model: str | None = None
    can_repair = False

    async def draft(self, ctx: DraftContext) -> DraftResult:
        return DraftResult(data=_drafters()[ctx.dialect](ctx))

    async def repair(self, ctx: DraftContext, data: dict[str, Any],
                     findings: list[Finding]) -> DraftResult:
        return DraftResult(data=None, error="the offline engine has no model to repair with")

    async def refine_plan(self, project: Project, dialect: str, source: str,
                          behaviors: list[Behavior], direction: str | None
                          ) -> tuple[list[Behavior], Usage]:
        return behaviors, Usage()


__all__ = ["OfflineEngine"]
