"""`casegen run`'s live status line: runs finished, and runs held by the rpm/tpm budget.

A run whose simulator or judge waits for room in the endpoint's requests/tokens-per-minute
budget (`[tool.casegen] rpm`, `tpm`) looks hung without it. The line is on stderr, only on
a terminal and never with `--json`; on Ray the count comes from the cluster's shared budget.
"""

from __future__ import annotations

import contextlib
from collections.abc import Awaitable, Callable, Sized
from typing import Any, TypeVar

from ._output import stderr

T = TypeVar("T")
TICK_S = 0.5


def progress_line(finished: int, waiting: int) -> str:
    text = f"running · {finished} run{'s' if finished != 1 else ''} finished"
    if waiting:
        text += f" · {waiting} waiting on the rpm/tpm budget"
    return text


def waiting_counter(executor: Any) -> Callable[[], Awaitable[int]]:
    """Calls waiting on a budget now: the executor's shared one (Ray), else this process's."""

    async def local() -> int:
        # start-up: pydantic, asyncio, tomllib and 12 casegen modules
        from evalcore.llm.budget import waiting

        return waiting()

    counter = getattr(executor, "waiting", None)
    return counter if counter is not None else local


async def with_progress(
    work: Awaitable[T], finished: Sized, waiting: Callable[[], Awaitable[int]], *, show: bool
) -> T:
    """Await `work`, refreshing the status line every `TICK_S` while it runs."""
    import asyncio  # start-up: asyncio

    if not show or not stderr.is_terminal:
        return await work
    task = asyncio.ensure_future(work)
    with stderr.status(progress_line(0, 0)) as status:
        while not task.done():
            with contextlib.suppress(Exception):  # a status line never fails the command
                status.update(progress_line(len(finished), await waiting()))
            await asyncio.wait({task}, timeout=TICK_S)
    return task.result()


__all__ = ["progress_line", "waiting_counter", "with_progress"]
