"""When a failed model call is worth another try, and how long to wait first.

Kept apart from the call loop so the policy (which errors are transient, how Retry-After and
backoff combine, which rejections get a hint) reads in one place.
"""

from __future__ import annotations

import random

import openai

from .config import ModelConfig
from .errors import ModelRequestError
from .usage import Usage

#: HTTP statuses worth another try besides 429 and 5xx (request timeout, conflict, too early).
RETRY_STATUSES = {408, 409, 425}


def transient_reason(exc: Exception, config: ModelConfig) -> str | None:
    """Why `exc` is worth a retry, or None when it is not."""
    if isinstance(exc, openai.APITimeoutError | TimeoutError):
        return f"no answer within {config.timeout_s:g}s"
    if isinstance(exc, openai.APIConnectionError):
        return f"connection failed ({one_line(exc)})"
    if isinstance(exc, openai.RateLimitError):
        return "rate limited (HTTP 429)"
    if isinstance(exc, openai.APIStatusError) and (
        exc.status_code >= 500 or exc.status_code in RETRY_STATUSES
    ):
        return f"server error (HTTP {exc.status_code}: {one_line(exc.message)})"
    return None


def raise_rejected(exc: Exception, config: ModelConfig, usage: Usage) -> None:
    """Turn a rejected request into a `ModelRequestError` with a hint; others pass."""
    if not isinstance(exc, openai.APIStatusError):
        return
    hints = {
        401: "check the API key (OPENAI_API_KEY or the variable named by api_key_env)",
        403: "the key may not have access to this model",
        404: f"is '{config.model}' served at {endpoint(config)}?",
    }
    hint = hints.get(exc.status_code)
    raise ModelRequestError(
        f"model '{config.model}' at {endpoint(config)} rejected the request "
        f"(HTTP {exc.status_code}): {one_line(exc.message)}" + (f"; {hint}" if hint else ""),
        usage=usage,
        attempts=usage.calls + 1,
    ) from exc


def backoff_s(config: ModelConfig, attempt: int, exc: Exception) -> float:
    """Exponential backoff with jitter, at least the server's Retry-After, capped."""
    base = config.retry_base_delay_s * 2 ** (attempt - 1)
    delay = min(config.retry_max_delay_s, base) * random.uniform(0.5, 1.0)
    retry_after = retry_after_s(exc)
    if retry_after is not None:
        delay = max(delay, retry_after)
    return min(delay, config.retry_max_delay_s)


def retry_after_s(exc: Exception) -> float | None:
    response = getattr(exc, "response", None)
    headers = getattr(response, "headers", None)
    if headers is None:
        return None
    for name, scale in (("retry-after-ms", 0.001), ("retry-after", 1.0)):
        value = headers.get(name)
        if value is None:
            continue
        try:
            return max(0.0, float(value) * scale)
        except ValueError:
            continue  # an HTTP date: fall back to our own backoff
    return None


def endpoint(config: ModelConfig) -> str:
    return config.base_url or "the OpenAI API"


def one_line(value: object, limit: int = 300) -> str:
    text = " ".join(str(value).split())
    return text if len(text) <= limit else text[: limit - 1] + "…"
