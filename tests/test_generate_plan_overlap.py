"""With a model, each target's plan is refined by one request, and the targets' requests
are awaited together, not one after another (at most `--concurrency` at once). The answers
are taken in the targets' order, so the plan is what refining them one after another gives;
a refused request stops the plan with its own error and leaves no request running."""

from __future__ import annotations

import asyncio
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from agentflows.drafting.offline import OfflineEngine
from agentflows.generate import build_request, nodes
from agentflows.generate.context import GenerateContext
from evalcore.dialects import get_dialect
from evalcore.errors import ConfigError
from evalcore.llm import Usage

BANK = Path(__file__).resolve().parents[1] / "examples" / "bank"
TARGETS = ["card_replace", "check_balance", "dispute_charge"]


class HeldRefine(OfflineEngine):
    """A model's plan refining: the first target's answer is held until every target's
    request is out; each answer marks its titles; `refuse` answers as a rejected key."""

    name = "llm:held"
    model = "held"

    def __init__(self, refuse: str | None = None) -> None:
        self.refuse = refuse
        self.out: list[str] = []
        self.all_out = asyncio.Event()
        self.cancelled: list[str] = []
        self.in_flight = self.most = 0

    async def refine_plan(self, project, dialect, source, behaviors, direction):  # type: ignore[no-untyped-def]
        self.in_flight += 1
        self.most = max(self.most, self.in_flight)
        try:
            return await self._answer(source, behaviors)
        finally:
            self.in_flight -= 1

    async def _answer(self, source: str, behaviors: Any) -> Any:
        self.out.append(source)
        if len(self.out) == len(TARGETS):
            self.all_out.set()
        if source == self.refuse:
            raise ConfigError("the endpoint rejected the request")
        try:
            if self.refuse is not None and source != TARGETS[0]:  # out when the refusal comes
                await asyncio.Event().wait()
            if source == TARGETS[0]:
                await asyncio.wait_for(self.all_out.wait(), timeout=10)
            else:
                await asyncio.sleep(0.01 * (len(TARGETS) - TARGETS.index(source)))
        except asyncio.CancelledError:
            self.cancelled.append(source)
            raise
        refined = [b.model_copy(update={"title": f"{b.title} ({source})"}) for b in behaviors]
        return refined, Usage(calls=1, input_tokens=10 + TARGETS.index(source))


def _plan(engine: Any, concurrency: int = 4) -> dict[str, Any]:
    request = build_request(TARGETS, project=BANK, concurrency=concurrency)
    ctx = GenerateContext(
        request=request,
        project=request.loaded_project(),
        dialect=get_dialect(request.dialect),
        engine=engine,
        run_id="gen-test",
        started_at="2026-01-01T00:00:00Z",
    )
    return asyncio.run(nodes.plan({}, SimpleNamespace(context=ctx)))  # type: ignore[arg-type]


def test_each_targets_request_goes_out_while_the_first_is_awaited() -> None:
    engine = HeldRefine()
    planned = _plan(engine)
    assert engine.out == TARGETS and not engine.cancelled
    assert engine.most == len(TARGETS)
    offline = _plan(OfflineEngine())
    expected = [f"{b['title']} ({b['source']})" for b in offline["behaviors"]]
    assert [b["title"] for b in planned["behaviors"]] == expected  # in the targets' order
    assert planned["plans"] == offline["plans"]
    assert planned["plan_usage"]["calls"] == len(TARGETS)


def test_one_request_at_a_time_at_concurrency_one() -> None:
    engine = HeldRefine()
    with pytest.raises(TimeoutError):  # the held first answer never sees the others go out
        _plan(engine, concurrency=1)
    assert engine.most == 1


def test_a_refused_request_stops_the_plan_and_cancels_the_others() -> None:
    engine = HeldRefine(refuse=TARGETS[1])
    with pytest.raises(ConfigError, match="rejected"):
        _plan(engine)
    assert engine.out == TARGETS
    assert engine.cancelled == TARGETS[2:]  # not left running
