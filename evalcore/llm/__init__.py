"""Model access shared by the generator, the simulator and the judge.

    config = resolve_model_config(None, start="examples/bank")   # None → run offline
    chat = make_chat_model(config)
    result = await structured_call(chat, messages, MantleCase, config=config,
                                   cache=ResponseCache(config.cache_dir))

Everything goes through the OpenAI-compatible Chat Completions API, so the OpenAI API and
self-hosted servers (vLLM, Ollama, llama.cpp) are configured the same way.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

from .cache import ResponseCache, cache_key
from .config import METHOD_ORDER, ModelConfig, Role, find_settings, resolve_model_config
from .errors import InvalidOutputError, LLMError, ModelRequestError, ModelUnavailableError
from .usage import Usage, cost_usd

if TYPE_CHECKING:
    from .chat import make_chat_model
    from .structured import StructuredResult, output_spec, structured_call

#: Imported on first use: the OpenAI client stack takes seconds to import, and offline runs
#: (which only resolve the config to find there is no model) never need it.
_LAZY = {
    "make_chat_model": "chat",
    "StructuredResult": "structured",
    "output_spec": "structured",
    "structured_call": "structured",
}


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        return getattr(import_module(f"{__name__}.{_LAZY[name]}"), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = [
    "METHOD_ORDER",
    "InvalidOutputError",
    "LLMError",
    "ModelConfig",
    "ModelRequestError",
    "ModelUnavailableError",
    "ResponseCache",
    "Role",
    "StructuredResult",
    "Usage",
    "cache_key",
    "cost_usd",
    "find_settings",
    "make_chat_model",
    "output_spec",
    "resolve_model_config",
    "structured_call",
]
