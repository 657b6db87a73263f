"""Which engine wrote what in one case, so the report's label says what actually ran.

A model drafting on the offline plan writes only the words (a title, the simulated user's
text, criteria); each part it got wrong is replaced by the plan's (the model's criteria
kept only when usable, the planned context when facts went missing, review before writing
replacing a title that does not read as words). When nothing of the model's is left the case
is the offline draft, and its label says so instead of naming the model.
"""

from __future__ import annotations

from typing import Any

from ..drafting import DraftContext
from ..drafting.llm import planned_drafting
from .context import GenerateContext

#: The label of a model-drafted case none of whose words were usable.
FALLBACK = "offline (fallback: none of the model's words were usable)"


def model_parts(
    ctx: GenerateContext,
    draft: DraftContext,
    data: dict[str, Any] | None,
    document: dict[str, Any] | None = None,
) -> list[str]:
    """The fields of `data` that differ from the offline plan (what the model wrote);
    every field for a dialect drafted whole; [] for the offline engine. `draft` is the
    context the model drafted in (its siblings too: the plan deals the suite's callers by
    a case's place among them), so the plan compared against is the one it was given;
    `document`: that plan's document, when the engine kept it (`DraftResult.planned`)."""
    if ctx.engine.name == "offline" or data is None:
        return []
    planned = planned_drafting(ctx.request.dialect)
    if planned is None:
        return ["*"]
    if document is None:
        document, _ = planned.planned_case(draft)
    return sorted(differing(document, data))


def without_fixed(parts: list[str], fixes: list[dict[str, Any]]) -> list[str]:
    """`parts` less those review before writing threw out as unreadable."""
    dropped = {_field(fix["path"]) for fix in fixes if fix.get("code") == "review:unreadable-text"}
    return [p for p in parts if p not in dropped]


def label(ctx: GenerateContext, parts: list[str] | None) -> str:
    if ctx.engine.name == "offline" or parts is None:
        return ctx.engine.name
    return ctx.engine.name if parts else FALLBACK


def differing(left: Any, right: Any, key: str = "") -> set[str]:
    if isinstance(left, dict) and isinstance(right, dict):
        out: set[str] = set()
        for name in set(left) | set(right):
            out |= differing(left.get(name), right.get(name), name)
        return out
    if left != right:
        return {key}
    return set()


def _field(pointer: str) -> str:
    tokens = [t for t in pointer.split("/") if t and not t.isdigit()]
    return tokens[-1] if tokens else ""


__all__ = ["FALLBACK", "differing", "label", "model_parts", "without_fixed"]
