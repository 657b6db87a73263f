"""Drafting engines: the offline drafter (deterministic) and the LLM drafter.

engine = make_engine(model=None)        # offline unless a model is configured
result = await engine.draft(DraftContext(project, "mantle", behavior))
"""

from __future__ import annotations

from evalcore.llm import resolve_model_config

from ._engine import DraftContext, DraftEngine, DraftResult, Usage
from .offline import OfflineEngine


def make_engine(
    model: str | None = None, *, no_cache: bool = False, start: str | None = None
) -> DraftEngine:
    """The offline engine for `offline`, or when no model is configured; else the LLM engine.

    `start` is the folder whose `casegen.toml` / `pyproject.toml [tool.casegen]` is read.
    """
    if model == "offline":
        return OfflineEngine()
    config = resolve_model_config(model, start=start)
    if config is None:
        return OfflineEngine()
    # start-up: langchain_core, langchain_openai, langsmith and 17 casegen modules
    from .llm import LLMEngine

    return LLMEngine(config, use_cache=not no_cache)


__all__ = ["DraftContext", "DraftEngine", "DraftResult", "Usage", "make_engine"]
