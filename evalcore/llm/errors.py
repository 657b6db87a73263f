"""What a model call can end in after its retries, as exceptions that explain themselves.

Each carries the `usage` spent on the failed attempts, so a caller that records failures can
still account for the tokens.
"""

from __future__ import annotations

import sys
from typing import Literal

from ..redact import redact
from .usage import Usage

FailureKind = Literal["unreachable", "auth", "transient"]


class LLMError(Exception):
    """A model call that did not produce a usable answer."""

    def __init__(self, message: str, *, usage: Usage | None = None, attempts: int = 0) -> None:
        # An endpoint may echo the key or a credentialed URL in its error body: the message
        # is masked before it can reach a report, the checkpoint store or a terminal.
        message = redact(message)
        super().__init__(message)
        self.usage = usage or Usage()
        self.attempts = attempts


class ModelUnavailableError(LLMError):
    """Rate limits, server errors, timeouts or connection errors outlasted the retries."""


class InvalidOutputError(LLMError):
    """The model kept answering with unparseable JSON or JSON that does not fit the schema."""

    def __init__(
        self,
        message: str,
        *,
        usage: Usage | None = None,
        attempts: int = 0,
        raw_text: str = "",
        problem: str = "",
        parsed: object = None,
    ) -> None:
        super().__init__(message, usage=usage, attempts=attempts)
        self.raw_text = redact(raw_text)
        """The last answer as the model wrote it."""
        self.problem = problem
        """What was wrong with the last answer."""
        self.parsed = parsed
        """The last answer's JSON when it parsed but did not fit the model (None otherwise):
        a drafting caller hands it to the findings-based repair instead of dropping it."""


class ModelRequestError(LLMError):
    """The endpoint rejected the request itself (bad key, unknown model, bad request): a
    retry would get the same answer."""


def failure_kind(exc: BaseException) -> FailureKind | None:
    """What kind of endpoint failure `exc` (or an exception it was raised from) is.

    - `unreachable`: no connection at all (refused, no route, DNS): every later call fails
      the same way, so a caller stops at the first one;
    - `auth`: the endpoint refused the key (HTTP 401/403): the same for every call;
    - `transient`: a time-out, a rate limit or a server error that outlasted the retries: a
      later attempt (`--resume`) may well succeed;
    - None: anything else (invalid output, a rejected request, a bug).
    """
    seen: set[int] = set()
    current: BaseException | None = exc
    while current is not None and id(current) not in seen:
        seen.add(id(current))
        kind = _kind_of(current)
        if kind is not None:
            return kind
        current = current.__cause__ or current.__context__
    return "transient" if isinstance(exc, ModelUnavailableError) else None


def _kind_of(exc: BaseException) -> FailureKind | None:
    status = getattr(exc, "status_code", None)
    if status in (401, 403):
        return "auth"
    if status == 429 or (isinstance(status, int) and status >= 500):
        return "transient"
    # Only classes already imported can have been raised: no import of the client stack here.
    openai = sys.modules.get("openai")
    httpx = sys.modules.get("httpx")
    if openai is not None:
        if isinstance(exc, openai.APITimeoutError):
            return "transient"
        if isinstance(exc, openai.APIConnectionError):
            return "unreachable"
    if httpx is not None:
        if isinstance(exc, httpx.TimeoutException):
            return "transient"
        if isinstance(exc, httpx.TransportError):
            return "unreachable"
    if isinstance(exc, TimeoutError):
        return "transient"
    if isinstance(exc, ConnectionError):
        return "unreachable"
    return None


__all__ = [
    "FailureKind",
    "InvalidOutputError",
    "LLMError",
    "ModelRequestError",
    "ModelUnavailableError",
    "failure_kind",
]
