"""The LLM drafting engine (`--model NAME`, or a model configured for the project).

    engine = LLMEngine(resolve_model_config("gpt-4.1-mini", start="examples/bank"))
    result = await engine.draft(DraftContext(project, "mantle", behavior))

Prompts are `prompts/generate/{plan,draft,repair}_<dialect>.md`; the conventions each
dialect's cases follow are `prompts/generate/conventions_<dialect>.md`. The model corrects
the plan only by `PlanEdit`s, each justified by a definition line and checked (`_edits`).
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

from ._context import definition_ids, definition_text
from ._edits import EditQuote, EditRefused, PlanEdit
from ._plan import PlannedBehavior, RefinedPlan, merge_plan
from ._planned_entry import planned_drafting

if TYPE_CHECKING:
    from ._engine import DraftingError, LLMEngine, dump_case

#: The engine imports the chat client stack (LangChain, the OpenAI SDK): it loads on first
#: use, so a run's first prompts are rendered (and sent early, `evalcore.llm.early`) from
#: this package's light modules before it.
_LAZY = frozenset({"DraftingError", "LLMEngine", "dump_case"})


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        return getattr(import_module(f"{__name__}._engine"), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


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
