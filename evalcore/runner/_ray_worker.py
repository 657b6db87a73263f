"""What one Ray task does on its worker: one (case, repetition), exactly as `run_one` does it.

Imported by Ray on the worker (never by the driver's light commands). The task gets the case,
the target and the options without their chat models (clients hold sockets and event-loop
state; they are rebuilt here, per task, for this task's event loop), the packed fixture when
the case has one, and the handle of the shared budget keeper. It returns the record,
redacted here as locally (the model keys are registered in this process too); the driver
writes it, so a task retried after its node was lost still yields one record.
"""

from __future__ import annotations

import asyncio
from dataclasses import replace
from typing import Any

from ..agents._protocol import AgentTarget
from ..judge import make_judge
from ..redact import register_secret
from ._case import RunCase
from ._execute import run_one
from ._options import RunOptions
from ._ray_fixture import FixturePack, case_on_worker
from ._record import RunRecord


def without_models(options: RunOptions) -> RunOptions:
    """The options as they travel: model settings kept, built chat clients dropped."""
    return replace(
        options,
        simulator=replace(options.simulator, chat=None),
        judge=replace(options.judge, chat=None),
    )


_OBJECTS: dict[str, Any] = {}
_KEEP_OBJECTS = 64


def fetched(boxed: list[Any] | None) -> Any:
    """The object in a box: the value itself, or the one behind an ObjectRef, fetched once
    per worker.

    The driver passes each fixture pack (and a target or options too large to send along)
    as `[ref]`, not `ref`: Ray would fetch and unpickle a bare ref for every task; boxed, a
    worker does it once. Small values come as `[value]` (`_ray._boxed`).
    """
    if boxed is None:
        return None
    import ray

    (ref,) = boxed
    if not isinstance(ref, ray.ObjectRef):
        return ref
    key = ref.hex()
    if key not in _OBJECTS:
        if len(_OBJECTS) >= _KEEP_OBJECTS:
            _OBJECTS.clear()
        _OBJECTS[key] = ray.get(ref)
    return _OBJECTS[key]


def run_task(
    case_json: dict[str, Any],
    run_index: int,
    slug: str,
    target_box: list[Any],
    options_box: list[Any],
    pack_box: list[Any] | None,
    keeper: Any,
) -> RunRecord:
    """The Ray task body: one run, its record (redacted here, with the driver's keys)."""
    target: AgentTarget = fetched(target_box)
    options: RunOptions = fetched(options_box)
    pack: FixturePack | None = fetched(pack_box)
    case = RunCase.model_validate(case_json)
    _register_keys(options)
    if pack is not None:
        case = case_on_worker(case, pack)
    if keeper is not None:
        from ._ray_budget import install

        install(keeper, options)
    loop = _loop()
    main = loop.create_task(_run(case, run_index, slug, target, options))
    try:
        record = loop.run_until_complete(main)
    except BaseException:  # ray.cancel interrupts the task: stop the run (and its agent)
        _cancel_all(loop)
        raise
    return record


def _register_keys(options: RunOptions) -> None:
    """The driver registered the model keys for redaction; this process must know them too."""
    for settings in (options.simulator, options.judge):
        key = settings.model.api_key if settings.model is not None else None
        if key is not None:
            register_secret(key.get_secret_value())


_LOOP: asyncio.AbstractEventLoop | None = None


def _cancel_all(loop: asyncio.AbstractEventLoop) -> None:
    """As `asyncio.run` does on the way out: every task cancelled and awaited, so a command
    agent's session stops its process group and the project copy is discarded."""
    pending = asyncio.all_tasks(loop)
    for task in pending:
        task.cancel()
    if pending:
        loop.run_until_complete(asyncio.gather(*pending, return_exceptions=True))


def _loop() -> asyncio.AbstractEventLoop:
    """One event loop per worker process, reused by its tasks (Ray runs them one at a time)."""
    global _LOOP
    if _LOOP is None or _LOOP.is_closed():
        _LOOP = asyncio.new_event_loop()
        asyncio.set_event_loop(_LOOP)
    return _LOOP


async def _run(
    case: RunCase, run_index: int, slug: str, target: AgentTarget, options: RunOptions
) -> Any:
    from ..judge._metrics import make_metrics_judge

    options = options.with_models()
    metrics = make_metrics_judge(options.judge) if options.metrics else None
    judge = make_judge(options.judge)
    return await run_one(case, run_index, target, options, judge, slug=slug, metrics=metrics)


__all__ = ["run_task", "without_models"]
