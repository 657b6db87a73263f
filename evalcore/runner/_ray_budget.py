"""One rpm/tpm budget for the whole Ray cluster, not one per worker.

Locally every run of a command shares the process-wide `evalcore.llm.budget` of its endpoint.
On Ray the runs are spread over worker processes, so a per-process budget would allow
`workers × rpm`. Instead the driver starts one small actor holding a `RateBudget` per
(endpoint, model); on each worker, `install` puts a `SharedBudget` in the process's budget
table, so `structured_call` books every request (and every 429 pause) with the actor. The
actor also counts the calls waiting right now, for the driver's progress line.
"""

from __future__ import annotations

import asyncio
import time
import uuid
from collections.abc import Callable
from typing import Any

from ..llm import budget as budget_module
from ..llm.budget import RateBudget

Key = tuple[str | None, str]


class BudgetKeeper:
    """The actor's state: a budget per endpoint, and who is waiting on one."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self._clock = clock
        self._budgets: dict[Key, RateBudget] = {}
        self._waiting: set[str] = set()

    def _budget(self, key: Key, rpm: int | None, tpm: int | None) -> RateBudget:
        budget = self._budgets.get(key)
        if budget is None:
            budget = self._budgets[key] = RateBudget(rpm=rpm, tpm=tpm, clock=self._clock)
        return budget

    def book(self, key: Key, rpm: int | None, tpm: int | None, tokens: int, caller: str) -> float:
        """0: booked now; else the seconds to wait before asking again."""
        budget = self._budget(key, rpm, tpm)
        delay = budget._wait_s(tokens, budget.clock())
        if delay > 0:
            self._waiting.add(caller)
            return delay
        self._waiting.discard(caller)
        now = budget.clock()
        budget._requests.append(now)
        budget._tokens.append((now, tokens))
        return 0.0

    def settle(self, key: Key, estimated: int, actual: int) -> None:
        if key in self._budgets:
            self._budgets[key].settle(estimated, actual)

    def pause(self, key: Key, rpm: int | None, tpm: int | None, seconds: float) -> None:
        self._budget(key, rpm, tpm).pause(seconds)

    def waiting(self) -> int:
        return len(self._waiting)


class SharedBudget(RateBudget):
    """A worker's stand-in for one endpoint's budget: every decision is the actor's."""

    def __init__(self, keeper: Any, key: Key, rpm: int | None, tpm: int | None) -> None:
        super().__init__(rpm=rpm, tpm=tpm)
        self._keeper = keeper
        self._key = key

    async def acquire(self, tokens: int, sleep: Callable[[float], object] = asyncio.sleep) -> float:
        caller = uuid.uuid4().hex
        waited = 0.0
        while True:
            delay = await self._keeper.book.remote(self._key, self.rpm, self.tpm, tokens, caller)
            if delay <= 0:
                return waited
            self.waiting += 1
            try:
                await sleep(delay)  # type: ignore[misc]
            finally:
                self.waiting -= 1
            waited += delay

    def settle(self, estimated: int, actual: int) -> None:
        self._keeper.settle.remote(self._key, estimated, actual)

    def pause(self, seconds: float) -> None:
        self._keeper.pause.remote(self._key, self.rpm, self.tpm, seconds)


def limits_of(options: Any) -> list[tuple[Key, int | None, int | None]]:
    """(key, rpm, tpm) of every model the options use that has a budget."""
    found = []
    for settings in (options.simulator, options.judge):
        model = settings.model
        if model is not None and (model.rpm is not None or model.tpm is not None):
            found.append(((model.base_url, model.model), model.rpm, model.tpm))
    return found


def install(keeper: Any, options: Any) -> None:
    """On a worker: route this process's budgets of the options' models to the keeper."""
    for key, rpm, tpm in limits_of(options):
        budget_module._BUDGETS[key] = SharedBudget(keeper, key, rpm, tpm)


__all__ = ["BudgetKeeper", "SharedBudget", "install", "limits_of"]
