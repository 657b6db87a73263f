"""One JSON request to an agent over HTTP, with failures mapped to the agent errors.

Transport problems (refused, reset, DNS, timeout) become `AgentUnavailable`/`AgentTimeout` so
the runner reports the run as errored; a bad status or body becomes `AgentProtocolError`.

Two bounds hold whatever the server does: one deadline for the whole request (httpx's own
timeouts are per read, so a server trickling a byte a second would never trip them), and a
cap on the body, read in chunks (a 150 MB reply costs the cap, not 150 MB).
"""

from __future__ import annotations

import asyncio
import json
import time
from typing import Any

import httpx

from ._errors import AgentProtocolError, AgentTimeout, AgentUnavailable

DEFAULT_TIMEOUT_S = 60.0
#: Body cap where no `max_output_bytes` applies (a Rasa tracker of a long conversation).
DEFAULT_BODY_LIMIT = 64 * 1024 * 1024


class Deadline:
    """The time left of one overall limit (a turn, a close)."""

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds
        self._end = time.monotonic() + seconds

    @property
    def left(self) -> float:
        return max(0.0, self._end - time.monotonic())


def make_client(
    timeout_s: float, transport: httpx.AsyncBaseTransport | None = None
) -> httpx.AsyncClient:
    """A client with a bounded connect time and a per-request read limit."""
    timeout = httpx.Timeout(timeout_s, connect=min(10.0, timeout_s))
    return httpx.AsyncClient(timeout=timeout, transport=transport, follow_redirects=False)


async def _read(response: httpx.Response, limit: int, what: str, url: str) -> bytes:
    body = bytearray()
    async for chunk in response.aiter_bytes():
        body += chunk
        if len(body) > limit:
            raise AgentProtocolError(
                f"{what}: {url} answered more than {limit:,} bytes; the reply was cut there "
                "and not used",
                hint="raise `max_output_bytes` in [tool.casegen] if the agent really answers "
                "that much",
            )
    return bytes(body)


async def request_json(
    client: httpx.AsyncClient,
    method: str,
    url: str,
    *,
    body: Any = None,
    what: str,
    hint: str | None = None,
    deadline_s: float | None = None,
    max_bytes: int = DEFAULT_BODY_LIMIT,
) -> Any:
    """Send one request and return the decoded JSON body (None for an empty body).

    Args:
        deadline_s: the whole request (connect, send, every byte of the answer) must finish
            within it; default the client's read timeout.
        max_bytes: a longer body is an `AgentProtocolError` (read no further).
    """
    limit = client.timeout.read if deadline_s is None else deadline_s
    try:
        async with asyncio.timeout(limit):
            async with client.stream(method, url, json=body) as response:
                status = response.status_code
                content = await _read(response, max_bytes, what, url)
    except (TimeoutError, httpx.TimeoutException):
        raise AgentTimeout(f"{what}: {url} did not answer within {limit:g}s", hint=hint) from None
    except httpx.TransportError as exc:
        detail = str(exc) or type(exc).__name__
        raise AgentUnavailable(f"{what}: cannot reach {url} ({detail})", hint=hint) from None
    text = content.decode("utf-8", "replace")
    if status >= 300:  # redirects are not followed: a moved agent is an error
        raise AgentProtocolError(f"{what}: {url} answered HTTP {status}: {_excerpt(text)}")
    if not content.strip():
        return None
    try:
        return json.loads(content)
    except ValueError:
        raise AgentProtocolError(
            f"{what}: {url} answered with a body that is not JSON: {_excerpt(text)}"
        ) from None


def _excerpt(text: str, limit: int = 300) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[:limit] + "…"


__all__ = ["DEFAULT_BODY_LIMIT", "DEFAULT_TIMEOUT_S", "Deadline", "make_client", "request_json"]
