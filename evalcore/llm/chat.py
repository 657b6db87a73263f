"""The one place a chat model client is built, so every role talks to models the same way."""

from __future__ import annotations

from typing import Any

from langchain_openai import ChatOpenAI

from ..errors import ConfigError
from .config import ModelConfig


def make_chat_model(config: ModelConfig) -> ChatOpenAI:
    """A `ChatOpenAI` for `config` (OpenAI or any OpenAI-compatible endpoint).

    The client's own retries are off (`max_retries=0`): `structured_call` retries with its
    own backoff, counts what it spent, and tells transient errors from invalid output.

    Raises:
        ConfigError: no API key for the OpenAI API (a self-hosted `base_url` needs none).
    """
    if config.api_key is None:
        raise ConfigError(
            f"no API key for model '{config.model}'",
            hint="set OPENAI_API_KEY (or the variable named by api_key_env), or set base_url "
            "to a local OpenAI-compatible server; --model offline runs without a model",
        )
    options: dict[str, Any] = {
        "model": config.model,
        "api_key": config.api_key,
        "base_url": config.base_url,
        "timeout": config.timeout_s,
        "max_retries": 0,
        # Chat Completions is what self-hosted servers implement; never switch APIs by model.
        "use_responses_api": False,
    }
    if config.temperature is not None:
        options["temperature"] = config.temperature
    return ChatOpenAI(**options)


__all__ = ["make_chat_model"]
