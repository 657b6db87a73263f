"""MCP progress notifications from the synchronous callbacks of long flows.

Generation reports through `on_update(node, values)` and the runner through `on_run(record)`;
both are plain callbacks called inside the event loop (or, for `--pr`, in a worker thread).
Notifications are queued in order and sent by one task, so they arrive in the order the
flow made them.

The protocol requires `progress` to increase with every notification. It counts finished
units out of `total`: for generation, the cases settled (valid or failed) plus one last unit
for deduplicating and writing them; for runs, the runs finished. An update that finishes no
unit (a case drafted or repaired) still gets a notification with a new message, its value
moved halfway towards the next whole unit, so the number always increases, its whole part
stays the count of finished units, and it never passes `total`.
"""

from __future__ import annotations

import math
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar, cast

import anyio
from anyio.streams.memory import MemoryObjectReceiveStream, MemoryObjectSendStream

from ..commands import GenerateCounters

_Item = tuple[float, float | None, str]
T = TypeVar("T")


class ProgressSender:
    """Queues `(progress, total, message)` and forwards them to the request's client."""

    def __init__(self, ctx: Any) -> None:
        self.ctx = ctx
        self.last = -1.0
        self.sent = 0
        send: MemoryObjectSendStream[_Item]
        receive: MemoryObjectReceiveStream[_Item]
        send, receive = anyio.create_memory_object_stream(math.inf)
        self._send, self._receive = send, receive

    def post(self, done: float, total: float | None, message: str) -> None:
        """Queue a notification (from the event loop's thread)."""
        value = (
            float(done)
            if done > self.last
            else (self.last + (math.floor(self.last) + 1 - self.last) / 2)
        )
        if value <= self.last:
            return
        self.last = value
        self._send.send_nowait((value, total, message))

    def post_from_thread(self, done: float, total: float | None, message: str) -> None:
        """Queue a notification from a worker thread started with `anyio.to_thread`."""
        anyio.from_thread.run_sync(self.post, done, total, message)

    async def run(self, work: Callable[[], Awaitable[T]]) -> T:
        """Await `work()` while forwarding its notifications; then send what is queued.

        The work's own exception is re-raised as itself, not wrapped in the task group's
        ExceptionGroup, so callers can still tell a `UserError` from a crash.
        """
        failure: Exception | None = None
        result: T | None = None
        async with anyio.create_task_group() as group:
            group.start_soon(self._forward)
            try:
                result = await work()
            except Exception as exc:
                failure = exc
            finally:
                self._send.close()
        if failure is not None:
            raise failure
        return cast(T, result)

    async def _forward(self) -> None:
        async with self._receive:
            async for value, total, message in self._receive:
                try:
                    await self.ctx.report_progress(value, total, message)
                    self.sent += 1
                except Exception:  # a client that went away must not fail the tool
                    continue


class GenerationProgress(GenerateCounters):
    """The CLI's generation counters, reported as MCP progress instead of a progress bar."""

    def __init__(self, sender: ProgressSender, *, threaded: bool = False) -> None:
        super().__init__(None)
        self.sender = sender
        self.threaded = threaded

    def refresh(self, node: str) -> None:
        done = len(self.valid) + len(self.failed)
        message = (
            f"{node}: planned {self.planned} · drafted {len(self.drafted)} · valid "
            f"{len(self.valid)} · repaired {len(self.repaired)} · failed {len(self.failed)}"
        )
        post = self.sender.post_from_thread if self.threaded else self.sender.post
        post(done, self.total, message)

    @property
    def total(self) -> int | None:
        """One unit per planned case, plus one for deduplicating and writing them."""
        return self.planned + 1 if self.planned else None


__all__ = ["GenerationProgress", "ProgressSender"]
