"""One JSON request to an agent over HTTP, with failures mapped to the agent errors.

Transport problems (refused, reset, DNS, timeout) become `AgentUnavailable`/`AgentTimeout` so
the runner reports the run as errored; a bad status or body becomes `AgentProtocolError`.
"""

from __future__ import annotations

from typing import Any

import httpx

from ._errors import AgentProtocolError, AgentTimeout, AgentUnavailable

DEFAULT_TIMEOUT_S = 60.0


def make_client(
    timeout_s: float, transport: httpx.AsyncBaseTransport | None = None
) -> httpx.AsyncClient:
    """A client with a bounded connect time and a per-request read limit."""
    timeout = httpx.Timeout(timeout_s, connect=min(10.0, timeout_s))
    return httpx.AsyncClient(timeout=timeout, transport=transport, follow_redirects=False)


async def request_json(
    client: httpx.AsyncClient,
    method: str,
    url: str,
    *,
    body: Any = None,
    what: str,
    hint: str | None = None,
) -> Any:
    """Send one request and return the decoded JSON body (None for an empty body)."""
    try:
        response = await client.request(method, url, json=body)
    except httpx.TimeoutException:
        limit = client.timeout.read
        raise AgentTimeout(f"{what}: {url} did not answer within {limit:g}s", hint=hint) from None
    except httpx.TransportError as exc:
        detail = str(exc) or type(exc).__name__
        raise AgentUnavailable(f"{what}: cannot reach {url} ({detail})", hint=hint) from None
    if response.status_code >= 300:  # redirects are not followed: a moved agent is an error
        raise AgentProtocolError(
            f"{what}: {url} answered HTTP {response.status_code}: {_excerpt(response.text)}"
        )
    if not response.content.strip():
        return None
    try:
        return response.json()
    except ValueError:
        raise AgentProtocolError(
            f"{what}: {url} answered with a body that is not JSON: {_excerpt(response.text)}"
        ) from None


def _excerpt(text: str, limit: int = 300) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[:limit] + "…"


__all__ = ["DEFAULT_TIMEOUT_S", "make_client", "request_json"]
