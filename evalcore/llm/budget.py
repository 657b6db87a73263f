"""A shared requests- and tokens-per-minute budget per model endpoint.

`--parallel 16` or `--concurrency 10` can send more requests than a provider allows; without
a budget they come back as HTTP 429s, each retried on its own and each adding to the storm.
Every call to the same (endpoint, model) first takes room in a 60-second sliding window
(`rpm` requests, `tpm` tokens, estimated from the prompt and corrected by the real usage),
and a 429 pauses *all* callers of that endpoint for the back-off delay, not just the one.
`waiting()` says how many calls wait right now, for progress lines.
"""

from __future__ import annotations

import asyncio
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field

WINDOW_S = 60.0


@dataclass
class RateBudget:
    """One endpoint's window; safe to share between tasks of one event loop (no locks:
    the check and the booking happen between two awaits)."""

    rpm: int | None = None
    tpm: int | None = None
    clock: Callable[[], float] = time.monotonic
    _requests: deque[float] = field(default_factory=deque)
    _tokens: deque[tuple[float, int]] = field(default_factory=deque)
    _paused_until: float = 0.0
    waiting: int = 0

    def _prune(self, now: float) -> None:
        while self._requests and self._requests[0] <= now - WINDOW_S:
            self._requests.popleft()
        while self._tokens and self._tokens[0][0] <= now - WINDOW_S:
            self._tokens.popleft()

    def _wait_s(self, tokens: int, now: float) -> float:
        """Seconds until a call of `tokens` fits (0: now)."""
        self._prune(now)
        waits = [self._paused_until - now]
        if self.rpm is not None and len(self._requests) >= self.rpm:
            waits.append(self._requests[0] + WINDOW_S - now)
        if self.tpm is not None and self._tokens:
            used = sum(n for _, n in self._tokens)
            if used + tokens > self.tpm:
                # Wait until enough old calls leave the window (a call bigger than the whole
                # budget goes alone once the window is empty).
                freed, until = 0, now
                for at, n in self._tokens:
                    freed, until = freed + n, at + WINDOW_S
                    if used - freed + tokens <= self.tpm:
                        break
                waits.append(until - now)
        return max(waits)

    async def acquire(self, tokens: int, sleep: Callable[[float], object] = asyncio.sleep) -> float:
        """Wait for room, book the call; returns the seconds waited."""
        waited = 0.0
        while True:
            now = self.clock()
            delay = self._wait_s(tokens, now)
            if delay <= 0:
                self._requests.append(now)
                self._tokens.append((now, tokens))
                return waited
            self.waiting += 1
            try:
                await sleep(delay)  # type: ignore[misc]
            finally:
                self.waiting -= 1
            waited += delay

    def settle(self, estimated: int, actual: int) -> None:
        """Replace the booked estimate of the newest matching call by its real token count."""
        for index in range(len(self._tokens) - 1, -1, -1):
            at, n = self._tokens[index]
            if n == estimated:
                self._tokens[index] = (at, actual)
                return

    def pause(self, seconds: float) -> None:
        """A 429: nobody calls this endpoint for `seconds`."""
        self._paused_until = max(self._paused_until, self.clock() + seconds)


_BUDGETS: dict[tuple[str | None, str], RateBudget] = {}


def budget_for(base_url: str | None, model: str, rpm: int | None, tpm: int | None) -> RateBudget:
    """The process-wide budget of one endpoint and model (limits from its first caller)."""
    key = (base_url, model)
    budget = _BUDGETS.get(key)
    if budget is None or (budget.rpm, budget.tpm) != (rpm, tpm):
        budget = _BUDGETS[key] = RateBudget(rpm=rpm, tpm=tpm)
    return budget


def waiting() -> int:
    """Calls waiting on any budget right now."""
    return sum(b.waiting for b in _BUDGETS.values())


def estimate_tokens(text: str) -> int:
    """A prompt's tokens, roughly (four characters a token), before the answer says."""
    return max(1, len(text) // 4)


__all__ = ["RateBudget", "budget_for", "estimate_tokens", "waiting"]
