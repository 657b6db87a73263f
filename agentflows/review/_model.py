"""The model behind `critique` and `revise`: a configured chat model, its cache and its name.

Kept apart from the drafting engine: review asks different questions (comments, a revision
from a reviewer's words) but resolves and calls models the same way, through
`resolve_model_config` and `structured_call`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

from pydantic import BaseModel

from evalcore.llm import ModelConfig, ResponseCache, resolve_model_config

M = TypeVar("M", bound=BaseModel)


@dataclass
class ReviewModel:
    """A chat model ready for structured calls.

    Args:
        config: The resolved model configuration.
        chat_model: The LangChain chat model (tests pass a fake one).
        cache: The response cache; None: no cache.
    """

    config: ModelConfig
    chat_model: Any
    cache: ResponseCache | None = None

    @property
    def name(self) -> str:
        """`llm:<model>`, as review and revise output name the engine."""
        return f"llm:{self.config.model}"

    async def ask(
        self, messages: Sequence[tuple[str, str]], schema: type[M], *, kind: str = "critique"
    ) -> Any:
        """One structured call (retries, cache, usage); raises `LLMError` when it fails."""
        # start-up: langchain_core, langsmith, openai and 10 casegen modules
        from evalcore.llm import structured_call

        return await structured_call(
            self.chat_model, messages, schema, config=self.config, cache=self.cache, kind=kind
        )


def review_model(
    model: str | None, *, start: str | Path | None = None, no_cache: bool = False
) -> ReviewModel | None:
    """The configured model (`--model`, environment, settings file), or None for rules only.

    Raises:
        ConfigError: a model is named but cannot be used (no API key, bad settings).
    """
    config = resolve_model_config(model, start=start)
    if config is None:
        return None
    # start-up: langchain_core, langchain_openai, langsmith and 1 casegen module
    from evalcore.llm import make_chat_model

    cache = None if no_cache else ResponseCache(config.cache_dir)
    return ReviewModel(config, make_chat_model(config), cache)


__all__ = ["ReviewModel", "review_model"]
