"""A cap on model requests in flight, shared by every caller in one command's tasks.

A command that runs N conversations at once (`casegen run --parallel N`) makes its model
requests from several places: each conversation's simulator, then its criteria judge and
metrics judge together (and K judge samples at once). Without a shared cap, N finishing
conversations send 2N requests at the same moment, and a provider limit sized to N is
exceeded. `request_limit(n)` sets the cap for the code it wraps (the tasks it starts
inherit it through their context); `structured_call` holds one place for the duration
of each HTTP request, never while backing off between retries.

    with request_limit(options.parallel):
        await asyncio.gather(*(run(case) for case in cases))
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
from collections.abc import AsyncIterator, Iterator

_LIMIT: contextvars.ContextVar[asyncio.Semaphore | None] = contextvars.ContextVar(
    "casegen_request_limit", default=None
)


@contextlib.contextmanager
def request_limit(requests: int) -> Iterator[None]:
    """At most `requests` model requests in flight in this context and the tasks started
    from it (in one event loop)."""
    if requests < 1:
        raise ValueError(f"requests in flight must be at least 1 (got {requests})")
    token = _LIMIT.set(asyncio.Semaphore(requests))
    try:
        yield
    finally:
        _LIMIT.reset(token)


@contextlib.asynccontextmanager
async def request_slot() -> AsyncIterator[None]:
    """One place among the requests in flight (no cap set: at once)."""
    limit = _LIMIT.get()
    if limit is None:
        yield
        return
    async with limit:
        yield


__all__ = ["request_limit", "request_slot"]
