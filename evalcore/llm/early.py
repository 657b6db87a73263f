"""Early requests: a run's first prompts sent before the chat client stack is imported.

The OpenAI client, LangChain and LangGraph take about a second and a half of CPU to import
on a shared 2-core machine (docs/benchmarks.md, "Where users wait"), while a run's first
prompts are ready before that. `send` posts such a prompt at once, on a thread with httpx
(the endpoint probe has loaded it already), as the same request body the chat client sends
for that call (`wire_body`; `tests/test_early_requests.py` compares it with what
`ChatOpenAI` puts on the wire), and `structured_call` takes the answer to the identical
request instead of asking again (`take`), so the model's wait overlaps the imports.

Only a plain finished answer is taken (HTTP 200, a choice whose `finish_reason` is `stop`,
text content, no tool call or refusal): that is an answer the client would return as is.
Anything else (an error status, a cut-off or filtered answer, a time-out, a body that is
not a chat completion) is dropped and the client asks again, with its own retries, back-off
and error reporting, so what a run does with a failing endpoint is unchanged; such an
endpoint is charged the early request once more. Nothing is sent early for a call with a
rate budget (`rpm`/`tpm`), an organisation or project header from the environment (the
client would add it), a model whose requests the client rewrites, or a method other than
`json_schema`; and `structured_call` compares the early body with the one the client would
send before it takes an answer.
"""

from __future__ import annotations

import asyncio
import functools
import hashlib
import json
import os
import re
import threading
from collections.abc import Sequence
from concurrent.futures import Future
from dataclasses import dataclass
from typing import Any

from ..lexicon.notation.early_model_names import CLIENT_REWRITES
from . import _fit
from ._schema import model_facing
from .config import ModelConfig

#: Where an OpenAI-compatible client goes without a base_url (as the OpenAI client does).
OPENAI_URL = "https://api.openai.com/v1"
#: Environment variables the OpenAI client turns into request headers: with one set, the
#: early request would not be the client's, so none is sent.
CLIENT_HEADER_ENV = ("OPENAI_ORG_ID", "OPENAI_ORGANIZATION", "OPENAI_PROJECT_ID", "OPENAI_PROJECT")

_lock = threading.Lock()
_sent: dict[str, Future[tuple[int | None, bytes]]] = {}
_clients: dict[tuple[str, bool, float], Any] = {}


@dataclass(frozen=True)
class EarlyAnswer:
    """The parts of a plain finished chat completion that a structured call reads."""

    content: str
    input_tokens: int
    output_tokens: int


@functools.lru_cache(maxsize=64)
def output_spec_of(schema: Any, strict: bool) -> dict[str, Any]:
    """The schema as a call asks for it: a name, a description and the grammar-safe,
    untitled JSON Schema of `evalcore.llm._schema`. Built once per model: a case model's
    schema takes milliseconds of CPU, which concurrent drafts would otherwise spend again
    on every call (read-only result)."""
    name = re.sub(r"[^A-Za-z0-9_-]", "_", schema.__name__)[:64]
    doc = (schema.__doc__ or "").strip().splitlines()
    description = doc[0] if doc else f"A {schema.__name__} value."
    body = model_facing(schema.model_json_schema())
    return {"name": name, "description": description, "parameters": body}


def wire_body(
    config: ModelConfig,
    messages: Sequence[tuple[str, str]],
    spec: dict[str, Any],
    *,
    max_tokens: int | None,
    strict: bool = False,
) -> dict[str, Any] | None:
    """The JSON body the chat client posts for a first `json_schema` attempt (the call's
    own temperature left to the configured one); None for a message it cannot carry."""
    wire: list[dict[str, str]] = []
    for role, content in messages:
        on_wire = _wire_role(role)
        if on_wire is None or not isinstance(content, str):
            return None
        wire.append({"content": content, "role": on_wire})
    body: dict[str, Any] = {"model": config.model, "stream": False, "messages": wire}
    if config.temperature is not None:
        body["temperature"] = config.temperature
    schema = {"name": spec["name"], "schema": spec["parameters"], "strict": strict}
    if spec.get("description"):
        schema["description"] = spec["description"]
    body["response_format"] = {"type": "json_schema", "json_schema": schema}
    if max_tokens is not None:
        body["max_tokens" if config.self_hosted else "max_completion_tokens"] = max_tokens
    return body


def fits(config: ModelConfig, messages: Sequence[tuple[str, str]], max_tokens: int | None) -> bool:
    """Whether a `json_schema` call sends `messages` uncut: `_fit` cuts a prompt that,
    with room for the answer, would not fit the context (the request would then differ)."""
    used = sum(_fit.tokens(text) + 4 for _, text in messages)
    return used <= config.context_tokens - (max_tokens or 0) - _fit.MARGIN_TOKENS


def cache_messages(messages: Sequence[tuple[str, str]]) -> list[dict[str, Any]]:
    """`messages` as the response cache's key names them (the chat client's roles)."""
    return [{"role": _client_role(role), "content": text} for role, text in messages]


def _wire_role(role: str) -> str | None:
    """A prompt message's role as the OpenAI wire format names it (the chat client's
    `human` is `user`); None for a role the early body does not carry."""
    if role == "human":
        return "user"
    return role if role in ("system", "user", "assistant") else None


def _client_role(role: str) -> str:
    """A prompt message's role as the chat client's messages name it (the cache key's:
    `user` is `human`, `assistant` is `ai`)."""
    if role == "user":
        return "human"
    return "ai" if role == "assistant" else role


def eligible(config: ModelConfig) -> bool:
    """Whether a call of `config` may be sent early (see the module docstring)."""
    if config.api_key is None or config.rpm is not None or config.tpm is not None:
        return False
    if CLIENT_REWRITES.match(config.model):  # the client's body would not be this one
        return False
    if config.structured not in ("auto", "json_schema"):
        return False
    return not any(os.environ.get(name) for name in CLIENT_HEADER_ENV)


def send(config: ModelConfig, body: dict[str, Any]) -> bool:
    """Post `body` now, on a thread; False when it is not sent (not eligible, or the same
    request is already out)."""
    if not eligible(config):
        return False
    key = _key(config, body)
    future: Future[tuple[int | None, bytes]] = Future()
    with _lock:
        if key in _sent:
            return False
        _sent[key] = future
    thread = threading.Thread(
        target=_post, args=(config, body, future), name="casegen-early", daemon=True
    )
    thread.start()
    return True


async def take(config: ModelConfig, body: dict[str, Any] | None) -> EarlyAnswer | None:
    """The early answer to exactly this request, once (None: none was sent, or it is not a
    plain finished answer and the caller asks again)."""
    if body is None or not _sent:
        return None
    with _lock:
        future = _sent.pop(_key(config, body), None)
    if future is None:
        return None
    status, payload = await asyncio.wrap_future(future)
    return plain_answer(status, payload)


def pending() -> int:
    """Early requests sent and not taken yet."""
    return len(_sent)


def forget() -> None:
    """Drop every early request not taken (tests; a run that ends without them)."""
    with _lock:
        _sent.clear()


def plain_answer(status: int | None, payload: bytes) -> EarlyAnswer | None:
    """The answer when it is a plain finished chat completion, else None."""
    if status != 200:
        return None
    try:
        completion = json.loads(payload)
        (choice,) = completion["choices"]
        message = choice["message"]
        usage = completion.get("usage") or {}
        content = message.get("content")
        plain = (
            choice.get("finish_reason") == "stop"
            and isinstance(content, str)
            and not message.get("tool_calls")
            and not message.get("function_call")
            and not message.get("refusal")
        )
        if not plain:
            return None
        return EarlyAnswer(
            content, int(usage.get("prompt_tokens") or 0), int(usage.get("completion_tokens") or 0)
        )
    except (ValueError, KeyError, TypeError, AttributeError, RecursionError):
        return None


def _key(config: ModelConfig, body: dict[str, Any]) -> str:
    api_key = config.api_key.get_secret_value() if config.api_key is not None else ""
    text = json.dumps([_url(config), api_key, body], sort_keys=True, ensure_ascii=False)
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


def _url(config: ModelConfig) -> str:
    return (config.base_url or OPENAI_URL).rstrip("/") + "/chat/completions"


def _client(config: ModelConfig) -> Any:
    """One httpx client per endpoint kind and timeout, shared by the early threads."""
    import httpx  # start-up: httpx (the endpoint probe loaded it before)

    verify = not _url(config).lower().startswith("http://")
    key = (_url(config).split("/", 3)[2], verify, config.timeout_s)
    with _lock:
        if key not in _clients:
            _clients[key] = httpx.Client(timeout=config.timeout_s, verify=verify)
        return _clients[key]


def _post(
    config: ModelConfig, body: dict[str, Any], future: Future[tuple[int | None, bytes]]
) -> None:
    """The request, on its thread: (status, body), or (None, b"") when none came back.
    Marked running first, so a draft cancelled while it waits (Ctrl-C) leaves it be."""
    if not future.set_running_or_notify_cancel():
        return
    api_key = config.api_key.get_secret_value() if config.api_key is not None else ""
    headers = {"Authorization": f"Bearer {api_key}", "Content-Type": "application/json"}
    try:
        data = json.dumps(body, ensure_ascii=False).encode("utf-8", "surrogatepass")
        response = _client(config).post(_url(config), content=data, headers=headers)
        future.set_result((response.status_code, response.content))
    except Exception:
        future.set_result((None, b""))


__all__ = [
    "EarlyAnswer",
    "cache_messages",
    "eligible",
    "fits",
    "forget",
    "output_spec_of",
    "pending",
    "plain_answer",
    "send",
    "take",
    "wire_body",
]
