"""`casegen run --parallel` and the rpm/tpm budget: runs share it, 429s pause every run, and
the status line says when runs wait on it. The Ray path's shared budget is in
test_ray_budget.py."""

from __future__ import annotations

import asyncio
from typing import Any

from pydantic import SecretStr
from stub_openai import RecordedRequest, StubOpenAI, rate_limited, stub_fixture

from agentflows.cli._run_progress import progress_line, waiting_counter
from evalcore.judge import JudgeSettings
from evalcore.llm import ModelConfig
from evalcore.llm import budget as budget_module
from evalcore.runcase import Criterion
from evalcore.runner import RunCase, RunOptions, SimulationSpec, run_cases
from evalcore.runner.testing import FunctionTarget, mantle_echo
from evalcore.simulator import SimulatorSettings

openai_stub = stub_fixture()
WINDOW_S = 1.0
RPM = 3


def _case(i: int) -> RunCase:
    return RunCase(
        slug=f"budget_{i}",
        name=f"budget {i}",
        dialect="mantle",
        path=f"budget_{i}.yml",
        simulate=SimulationSpec(context='You are calm.\n1. Say "Hello there"'),
        checks=[],
    )


def _answer(request: RecordedRequest) -> Any:
    """The simulated user says one line, then is done."""
    if "Hello there" in request.text.split("<Conversation>", 1)[-1]:
        return {"message": "", "done": True}
    return {"message": "Hello there", "done": False}


async def test_parallel_runs_share_the_budget_and_back_off_together(
    openai_stub: StubOpenAI, monkeypatch: Any
) -> None:
    monkeypatch.setattr(budget_module, "WINDOW_S", WINDOW_S)  # a short window, same rules
    budget_module._BUDGETS.clear()
    openai_stub.script(rate_limited(retry_after=0.3))
    openai_stub.handler = _answer
    model = ModelConfig(
        model="budget-sim",
        api_key=SecretStr(openai_stub.api_key),
        base_url=openai_stub.base_url,
        timeout_s=5.0,
        max_retries=3,
        retry_base_delay_s=0.05,
        retry_max_delay_s=0.3,
        rpm=RPM,
    )
    options = RunOptions(parallel=4, simulator=SimulatorSettings(model=model))
    seen: list[int] = []
    count = waiting_counter(None)
    booked: list[float] = []
    acquire = budget_module.RateBudget.acquire

    async def recording(self: Any, tokens: int, sleep: Any = asyncio.sleep) -> float:
        waited = await acquire(self, tokens, sleep)
        booked.append(self.clock())  # when the call got its place in the window
        return waited

    monkeypatch.setattr(budget_module.RateBudget, "acquire", recording)

    async def watch() -> None:
        while True:
            seen.append(await count())
            await asyncio.sleep(0.02)

    watcher = asyncio.ensure_future(watch())
    try:
        report = await run_cases([_case(i) for i in range(4)], FunctionTarget(mantle_echo), options)
    finally:
        watcher.cancel()
    assert [r.status for r in report.records] == ["passed"] * 4, [r.error for r in report.records]
    assert len(openai_stub.requests) == 1 + 4 * 2  # the 429, then two simulator calls per run
    times = sorted(booked)
    assert len(times) == len(openai_stub.requests)
    # No window of WINDOW_S held more than RPM calls (the 429 counts: it was sent).
    for first, later in zip(times, times[RPM:], strict=False):
        assert later - first >= WINDOW_S - 0.01, times
    assert times[-1] - times[0] >= 2 * WINDOW_S - 0.01  # nine calls at three a window
    assert max(seen) > 0  # runs were seen waiting on the budget
    assert progress_line(2, max(seen)).endswith(f"{max(seen)} waiting on the rpm/tpm budget")
    assert budget_module.waiting() == 0


def test_the_status_line_without_waiters() -> None:
    assert progress_line(1, 0) == "running · 1 run finished"
    assert progress_line(3, 0) == "running · 3 runs finished"


def _judging(request: RecordedRequest) -> Any:
    """The simulator's line, the criteria judge's verdict or the metrics judge's scores."""
    if request.schema_name == "QualityMetrics":
        scores = dict.fromkeys(("helpfulness", "repair_quality", "coherence", "tone"), 4)
        return {**scores, "task_completion": True, "reason": "[T1] done"}
    if request.schema_name == "CriteriaVerdicts":
        return {"criterion_1": {"reason": "[T1] greeted", "verdict": "pass"}}
    return _answer(request)


async def test_parallel_caps_model_requests_in_flight_across_simulator_and_judges(
    openai_stub: StubOpenAI,
) -> None:
    """`--parallel 4` with a judge and metrics: runs that finish together ask their criteria
    and metrics judges at once, yet never more than 4 requests reach the model."""
    budget_module._BUDGETS.clear()
    openai_stub.handler, openai_stub.delay_s = _judging, 0.15
    model = ModelConfig(
        model="inflight",
        api_key=SecretStr(openai_stub.api_key),
        base_url=openai_stub.base_url,
        timeout_s=5.0,
        max_retries=1,
    )
    options = RunOptions(
        parallel=4,
        simulator=SimulatorSettings(model=model),
        judge=JudgeSettings(model=model),
    )
    cases = [
        _case(i).model_copy(update={"criteria": [Criterion(id="1", text="The agent greets")]})
        for i in range(8)
    ]
    report = await run_cases(cases, FunctionTarget(mantle_echo), options)
    assert [r.status for r in report.records] == ["passed"] * 8, [r.error for r in report.records]
    assert all(r.scale_metrics for r in report.records), [r.metrics_note for r in report.records]
    kinds = [r.schema_name for r in openai_stub.requests]
    assert kinds.count("CriteriaVerdicts") == kinds.count("QualityMetrics") == 8
    assert openai_stub.most_in_flight == 4
