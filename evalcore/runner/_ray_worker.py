"""What one Ray task does on its worker: one (case, repetition), exactly as `run_one` does it.

Imported by Ray on the worker (never by the driver's light commands). The task gets the case,
the target and the options without their chat models (clients hold sockets and event-loop
state; they are rebuilt here, per task, for this task's event loop), the packed fixture when
the case has one, and the handle of the shared budget keeper. It returns the record as JSON;
the driver validates and writes it, so a task retried after its node was lost still yields
one record.
"""

from __future__ import annotations

import asyncio
from dataclasses import replace
from typing import Any

from ..agents._protocol import AgentTarget
from ..judge import make_judge
from ._case import RunCase
from ._execute import run_one
from ._options import RunOptions
from ._ray_fixture import FixturePack, case_on_worker


def without_models(options: RunOptions) -> RunOptions:
    """The options as they travel: model settings kept, built chat clients dropped."""
    return replace(
        options,
        simulator=replace(options.simulator, chat=None),
        judge=replace(options.judge, chat=None),
    )


def run_task(
    case_json: dict[str, Any],
    run_index: int,
    slug: str,
    target: AgentTarget,
    options: RunOptions,
    pack: FixturePack | None,
    keeper: Any,
) -> dict[str, Any]:
    """The Ray task body: one run, its record as JSON."""
    case = RunCase.model_validate(case_json)
    if pack is not None:
        case = case_on_worker(case, pack)
    if keeper is not None:
        from ._ray_budget import install

        install(keeper, options)
    record = asyncio.run(_run(case, run_index, slug, target, options))
    return record.model_dump(mode="json")


async def _run(
    case: RunCase, run_index: int, slug: str, target: AgentTarget, options: RunOptions
) -> Any:
    from ..judge._metrics import make_metrics_judge

    options = options.with_models()
    metrics = make_metrics_judge(options.judge) if options.metrics else None
    judge = make_judge(options.judge)
    return await run_one(case, run_index, target, options, judge, slug=slug, metrics=metrics)


__all__ = ["run_task", "without_models"]
