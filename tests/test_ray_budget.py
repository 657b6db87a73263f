"""The Ray path's rpm/tpm budget is one for the cluster: workers book with a keeper actor.

The keeper and the workers' stand-in are plain classes, tested here without Ray; the last test
runs the keeper as a real actor (skipped when Ray is not installed).
"""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from pydantic import SecretStr

from evalcore.llm import ModelConfig
from evalcore.llm import budget as budget_module
from evalcore.runner import RunOptions
from evalcore.runner._ray_budget import BudgetKeeper, SharedBudget, install, limits_of
from evalcore.simulator import SimulatorSettings

KEY = ("http://models.local/v1", "m")


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


class Call:
    """`handle.method.remote(...)` of a fake actor: runs the keeper's method, awaitable."""

    def __init__(self, method: Any) -> None:
        self._method = method

    def remote(self, *args: Any) -> Any:
        future = asyncio.get_running_loop().create_future()
        future.set_result(self._method(*args))
        return future


class Handle:
    def __init__(self, keeper: BudgetKeeper) -> None:
        self.book = Call(keeper.book)
        self.settle = Call(keeper.settle)
        self.pause = Call(keeper.pause)
        self.waiting = Call(keeper.waiting)


def test_the_keeper_books_and_counts_who_waits() -> None:
    clock = Clock()
    keeper = BudgetKeeper(clock)
    assert keeper.book(KEY, 2, None, 10, "a") == 0.0
    assert keeper.book(KEY, 2, None, 10, "b") == 0.0
    assert keeper.book(KEY, 2, None, 10, "c") == pytest.approx(60.0)
    assert keeper.waiting() == 1
    clock.now = 60.0
    assert keeper.book(KEY, 2, None, 10, "c") == 0.0
    assert keeper.waiting() == 0


def test_a_429_anywhere_pauses_every_worker() -> None:
    clock = Clock()
    keeper = BudgetKeeper(clock)
    keeper.pause(KEY, 100, None, 5.0)
    assert keeper.book(KEY, 100, None, 1, "w1") == pytest.approx(5.0)


def test_tokens_are_settled_with_the_real_usage() -> None:
    clock = Clock()
    keeper = BudgetKeeper(clock)
    assert keeper.book(KEY, None, 100, 10, "a") == 0.0
    keeper.settle(KEY, 10, 95)
    assert keeper.book(KEY, None, 100, 10, "b") == pytest.approx(60.0)


async def test_two_workers_share_one_budget_through_the_keeper() -> None:
    clock = Clock()
    keeper = BudgetKeeper(clock)
    handle = Handle(keeper)
    first, second = SharedBudget(handle, KEY, 1, None), SharedBudget(handle, KEY, 1, None)
    slept: list[float] = []

    async def sleep(seconds: float) -> None:
        slept.append(seconds)
        clock.now += seconds

    assert await first.acquire(5, sleep) == 0.0
    assert await second.acquire(5, sleep) == pytest.approx(60.0)  # the other worker's call
    assert slept == [pytest.approx(60.0)]


def test_install_routes_the_options_models_to_the_keeper() -> None:
    model = ModelConfig(model="m", api_key=SecretStr("k"), base_url=KEY[0], rpm=30, tpm=9000)
    options = RunOptions(simulator=SimulatorSettings(model=model))
    assert limits_of(options) == [(KEY, 30, 9000)]
    assert limits_of(RunOptions()) == []
    handle = Handle(BudgetKeeper())
    saved = dict(budget_module._BUDGETS)
    try:
        install(handle, options)
        used = budget_module.budget_for(KEY[0], "m", 30, 9000)
        assert isinstance(used, SharedBudget) and used._keeper is handle
    finally:
        budget_module._BUDGETS.clear()
        budget_module._BUDGETS.update(saved)


async def test_the_keeper_as_a_ray_actor() -> None:
    ray = pytest.importorskip("ray")
    started = not ray.is_initialized()
    if started:
        ray.init(num_cpus=1, include_dashboard=False, log_to_driver=False)
    try:
        handle = ray.remote(num_cpus=0)(BudgetKeeper).remote()
        budget = SharedBudget(handle, KEY, 1, None)
        assert await budget.acquire(1) == 0.0
        delay = await handle.book.remote(KEY, 1, None, 1, "other")
        assert delay > 59.0
        assert await handle.waiting.remote() == 1
    finally:
        if started:
            ray.shutdown()
