"""The LLM drafting engine (`--model NAME`, or a model configured for the project).

    engine = LLMEngine(resolve_model_config("gpt-4.1-mini", start="examples/bank"))
    result = await engine.draft(DraftContext(project, "mantle", behavior))

Prompts are `prompts/generate/{plan,draft,repair}_<dialect>.md`; the conventions each
dialect's cases follow are `prompts/generate/conventions_<dialect>.md`. The model corrects
the plan only by `PlanEdit`s, each justified by a definition line and checked (`_edits`).
"""

from __future__ import annotations

from ._context import definition_ids, definition_text
from ._edits import EditQuote, EditRefused, PlanEdit
from ._engine import DraftingError, LLMEngine, dump_case, planned_drafting
from ._plan import PlannedBehavior, RefinedPlan, merge_plan

__all__ = [
    "DraftingError",
    "EditQuote",
    "EditRefused",
    "LLMEngine",
    "PlanEdit",
    "PlannedBehavior",
    "RefinedPlan",
    "definition_ids",
    "definition_text",
    "dump_case",
    "merge_plan",
    "planned_drafting",
]
