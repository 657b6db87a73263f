"""Which module drafts a dialect's cases on the plan, apart from the engine so that asking
it loads no chat client (the generate flow's comparisons and `doctor` ask it too)."""

from __future__ import annotations

from types import ModuleType

from evalcore.dialects import get_dialect, load_entry


def planned_drafting(dialect: str) -> ModuleType | None:
    """The plan-based drafting module of `dialect` (`Dialect.planned_drafting`: the model
    writes the words, the plan keeps the ids and assertions), None for dialects drafted whole.
    It offers `WORDS` (the answer model), `planned_case`, `prompt_values`, `merge_words`
    (with `plan=`, the plan a repair's words are checked against, and `ctx=`, the case's
    draft context) and `keep_planned`."""
    entry = get_dialect(dialect).planned_drafting
    return load_entry(entry) if entry else None


__all__ = ["planned_drafting"]
