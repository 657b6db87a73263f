"""The shared rpm/tpm budget: calls wait for room, and a 429 pauses every caller."""

from __future__ import annotations

import asyncio
from typing import Any

from pydantic import BaseModel, SecretStr
from stub_openai import StubOpenAI, ok, rate_limited, stub_fixture

from evalcore.llm import ModelConfig, make_chat_model, structured_call
from evalcore.llm import budget as budget_module
from evalcore.llm.budget import RateBudget

openai_stub = stub_fixture()
MESSAGES = [("system", "You answer with a thing."), ("user", "One thing, please.")]


class Thing(BaseModel):
    name: str
    count: int


class FakeClock:
    """Time that moves only when a waiter sleeps, so the test is exact and instant."""

    def __init__(self) -> None:
        self.now = 0.0
        self.slept: list[float] = []

    def __call__(self) -> float:
        return self.now

    async def sleep(self, seconds: float) -> None:
        self.slept.append(seconds)
        self.now += seconds


async def test_rpm_spaces_calls_over_the_window() -> None:
    clock = FakeClock()
    budget = RateBudget(rpm=2, clock=clock)
    waited = [await budget.acquire(10, clock.sleep) for _ in range(3)]
    assert waited == [0.0, 0.0, 60.0]  # the third waits for the first to leave the window


async def test_tpm_counts_the_real_usage_not_the_estimate() -> None:
    clock = FakeClock()
    budget = RateBudget(tpm=100, clock=clock)
    await budget.acquire(10, clock.sleep)
    budget.settle(10, 95)  # the answer was long
    assert await budget.acquire(10, clock.sleep) == 60.0


async def test_a_pause_holds_every_caller() -> None:
    clock = FakeClock()
    budget = RateBudget(rpm=100, clock=clock)
    budget.pause(5.0)
    assert await budget.acquire(1, clock.sleep) == 5.0


def _config(stub: StubOpenAI, **overrides: Any) -> ModelConfig:
    values: dict[str, Any] = {
        "model": "budget-model",
        "api_key": SecretStr("k"),
        "base_url": stub.base_url,
        "timeout_s": 2.0,
        "max_retries": 3,
        "retry_base_delay_s": 0.05,
        "retry_max_delay_s": 0.2,
    }
    return ModelConfig(**(values | overrides))


async def test_429s_pause_the_shared_budget_and_then_succeed(openai_stub: StubOpenAI) -> None:
    budget_module._BUDGETS.clear()
    openai_stub.script(
        rate_limited(retry_after=0.1),
        rate_limited(retry_after=0.1),
        ok({"name": "a", "count": 1}),
        ok({"name": "b", "count": 2}),
    )
    cfg = _config(openai_stub, rpm=1000, tpm=1_000_000)
    model = make_chat_model(cfg)
    results = await asyncio.gather(
        structured_call(model, MESSAGES, Thing, config=cfg),
        structured_call(model, MESSAGES, Thing, config=cfg),
    )
    assert sorted(r.value.name for r in results) == ["a", "b"]
    assert len(openai_stub.requests) == 4
    shared = budget_module._BUDGETS[(cfg.base_url, cfg.model)]
    assert shared._paused_until > 0  # the 429 paused the endpoint's budget
    assert shared.waiting == 0


async def test_no_limits_means_no_budget(openai_stub: StubOpenAI) -> None:
    budget_module._BUDGETS.clear()
    openai_stub.script(ok({"name": "a", "count": 1}))
    cfg = _config(openai_stub)
    await structured_call(make_chat_model(cfg), MESSAGES, Thing, config=cfg)
    assert budget_module._BUDGETS == {}
