"""Which structured-output methods an endpoint answers, each asked once with a tiny schema.

The model layer detects the method on a run's first call (`evalcore.llm._methods`, with
`structured = "auto"`); `casegen doctor` asks up front what the server does with
`response_format: json_schema`, a forced tool call and `json_object`, and says which one the
`structured` setting will get. Every probe is one short
request (`max_tokens` small) and accepts any JSON object with the asked key.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from evalcore.llm import ModelConfig
from evalcore.redact import redact

from ._endpoint import auth_headers, body_text, endpoint_url, json_body

#: The probe's schema: small enough for any grammar converter.
SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {"answer": {"type": "string"}},
    "required": ["answer"],
    "additionalProperties": False,
}
PROMPT = 'Reply with the JSON object {"answer": "ok"} and nothing else.'
METHODS = ("json_schema", "tools", "json_object")
#: The `structured` setting's name of each probed method.
SETTING_NAME = {"json_schema": "json_schema", "tools": "tools", "json_object": "json"}


@dataclass
class MethodProbe:
    method: str
    works: bool
    detail: str


def probe_methods(config: ModelConfig, *, timeout_s: float = 60.0) -> list[MethodProbe]:
    """Ask once per method; a probe that errors says why (HTTP status and message)."""
    return [_probe(config, method, timeout_s) for method in METHODS]


def _request(config: ModelConfig, method: str) -> dict[str, Any]:
    body: dict[str, Any] = {
        "model": config.model,
        "messages": [{"role": "user", "content": PROMPT}],
        "max_tokens": 32,
        "temperature": 0,
    }
    if method == "json_schema":
        body["response_format"] = {
            "type": "json_schema",
            "json_schema": {"name": "probe", "schema": SCHEMA, "strict": False},
        }
    elif method == "tools":
        body["tools"] = [
            {
                "type": "function",
                "function": {"name": "probe", "description": "The answer.", "parameters": SCHEMA},
            }
        ]
        body["tool_choice"] = {"type": "function", "function": {"name": "probe"}}
    else:
        body["response_format"] = {"type": "json_object"}
    return body


def _probe(config: ModelConfig, method: str, timeout_s: float) -> MethodProbe:
    import httpx  # start-up: httpx, rich, pygments

    url = f"{endpoint_url(config)}/chat/completions"
    try:
        response = httpx.post(
            url,
            json=_request(config, method),
            headers=auth_headers(config),
            timeout=min(config.timeout_s, timeout_s),
        )
    except httpx.HTTPError as exc:
        return MethodProbe(method, False, redact(f"{type(exc).__name__}: {exc}"))
    if response.status_code != 200:
        return MethodProbe(
            method, False, f"HTTP {response.status_code}: {body_text(response, 160)}"
        )
    message = _message_of(json_body(response))
    if message is None:
        kind = response.headers.get("content-type", "no content type").split(";")[0]
        return MethodProbe(
            method,
            False,
            f"the answer is not a chat completion ({kind}): {body_text(response, 80)}",
        )
    raw = _raw(message, method)
    try:
        value = json.loads(raw)
    except (TypeError, ValueError, RecursionError):
        shown = " ".join(str(raw).split())[:80]
        return MethodProbe(method, False, f"answered without JSON: {shown!r}")
    if not isinstance(value, dict) or "answer" not in value:
        return MethodProbe(method, False, f"JSON without the asked key: {str(value)[:80]}")
    return MethodProbe(method, True, "answered the schema")


def _message_of(body: Any) -> dict[str, Any] | None:
    """`body["choices"][0]["message"]` when the body has that shape, else None."""
    choices = body.get("choices") if isinstance(body, dict) else None
    first = choices[0] if isinstance(choices, list) and choices else None
    message = first.get("message") if isinstance(first, dict) else None
    return message if isinstance(message, dict) else None


def _raw(message: dict[str, Any], method: str) -> Any:
    if method == "tools":
        calls = message.get("tool_calls")
        call = calls[0] if isinstance(calls, list) and calls else None
        function = call.get("function") if isinstance(call, dict) else None
        if isinstance(function, dict):
            return function.get("arguments")
    return message.get("content")


def context_size(config: ModelConfig, entries: list[dict[str, Any]]) -> tuple[int | None, str]:
    """The context size the server states, and where it said it (None: it does not)."""
    for entry in entries:
        if entry.get("id") not in (config.model, None) and len(entries) > 1:
            continue
        for key in ("max_model_len", "context_length", "context_window", "n_ctx"):
            if isinstance(entry.get(key), int):
                return entry[key], f"/models {key}"
        meta = entry.get("meta")
        if isinstance(meta, dict) and isinstance(meta.get("n_ctx_train"), int):
            return meta["n_ctx_train"], "/models meta.n_ctx_train"
    return _props(config)


def _props(config: ModelConfig) -> tuple[int | None, str]:
    """llama.cpp's server states its context at `GET /props` (beside `/v1`)."""
    import httpx  # start-up: httpx, rich, pygments

    root = endpoint_url(config).removesuffix("/v1")
    try:
        response = httpx.get(f"{root}/props", headers=auth_headers(config), timeout=10)
    except httpx.HTTPError:
        return None, "not stated by the server"
    body = json_body(response) if response.status_code == 200 else {}
    settings = body.get("default_generation_settings") if isinstance(body, dict) else None
    for source in (settings or {}, body if isinstance(body, dict) else {}):
        if isinstance(source.get("n_ctx"), int):
            return source["n_ctx"], "/props n_ctx"
    return None, "not stated by the server"


__all__ = ["METHODS", "SETTING_NAME", "MethodProbe", "context_size", "probe_methods"]
