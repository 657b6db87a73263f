"""What one Ray task does on its worker: one (case, repetition), exactly as `run_one` does it.

Imported by Ray on the worker (never by the driver's light commands). The task gets the case,
the target and the options without their chat models (one pickled blob for the whole command,
`setup_blob`), the packed fixture when the case has one, and the handle of the shared budget
keeper. A worker decodes each blob once and keeps what it builds from it (the target, the
options with their chat models, the judge) for its later tasks, as the local executor keeps
one of each for every run; the chat clients are built for the worker's one event loop. It
returns the record, redacted here as locally (the model keys are registered in this process
too), as the pickled bytes of its JSON-mode values (`pickle`, not Ray's cloudpickle: a
quarter of the cost per record); the driver writes it, so a task retried after its node was
lost still yields one record.
"""

from __future__ import annotations

import asyncio
import pickle
from dataclasses import dataclass, replace
from typing import Any

from ..agents import AgentTarget
from ..judge import Judge, make_judge, make_metrics_judge
from ..llm.inflight import request_limit
from ..redact import register_secret
from ..runcase import RunCase
from ._execute import checks_inline, run_one
from ._metrics import MetricsJudge
from ._options import RunOptions
from ._ray_budget import install
from ._ray_fixture import FixturePack, case_on_worker
from ._record import RunRecord


def without_models(options: RunOptions) -> RunOptions:
    """The options as they travel: model settings kept, built chat clients dropped."""
    return replace(
        options,
        simulator=replace(options.simulator, chat=None),
        judge=replace(options.judge, chat=None),
    )


def setup_blob(target: AgentTarget, options: RunOptions) -> bytes:
    """The target and the options (without chat clients) as they travel: pickled once per
    command by the driver, not once per task by Ray."""
    from ray import cloudpickle  # start-up: ray (optional, heavy)

    return cloudpickle.dumps((target, without_models(options)))


@dataclass
class _Setup:
    """What a worker builds from one setup blob, kept for its later tasks."""

    target: AgentTarget
    options: RunOptions
    judge: Judge
    metrics: MetricsJudge | None
    loop: asyncio.AbstractEventLoop


_SETUPS: dict[bytes, _Setup] = {}


def _setup(blob: bytes, loop: asyncio.AbstractEventLoop) -> _Setup:
    """The target, options, judge and metrics judge of `blob`, built once per worker and
    event loop (chat clients belong to the loop they were first used on)."""
    kept = _SETUPS.get(blob)
    if kept is not None and kept.loop is loop:
        return kept
    target, options = pickle.loads(blob)
    _register_keys(options)
    options = options.with_models()
    metrics = make_metrics_judge(options.judge) if options.metrics else None
    if len(_SETUPS) >= _KEEP_OBJECTS:
        _SETUPS.clear()
    kept = _SETUPS[blob] = _Setup(target, options, make_judge(options.judge), metrics, loop)
    return kept


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
    import ray  # start-up: ray (optional, heavy)

    (ref,) = boxed
    if not isinstance(ref, ray.ObjectRef):
        return ref
    key = ref.hex()
    if key not in _OBJECTS:
        if len(_OBJECTS) >= _KEEP_OBJECTS:
            _OBJECTS.clear()
        _OBJECTS[key] = ray.get(ref)
    return _OBJECTS[key]


def task_payload(
    case_json: dict[str, Any], run_index: int, slug: str, setup: bytes | None = None
) -> bytes:
    """What a task plays, as one argument: the case's JSON-mode values, the repetition, the
    slug and, when it is small, the setup blob, pickled by the driver (Ray serializes and
    tracks every argument of a task on its own: one bytes argument in place of three cost a
    fifth less driver CPU per task, and the setup blob inside it a little less again)."""
    return pickle.dumps((case_json, run_index, slug, setup), protocol=pickle.HIGHEST_PROTOCOL)


def run_task(
    payload: bytes,
    setup_box: list[Any] | None = None,
    extras: tuple[list[Any] | None, Any] | None = None,
) -> bytes:
    """The Ray task body: one run (`task_payload`), its record (redacted here, with the
    driver's keys), pickled. `setup_box`: the boxed setup blob when the payload does not
    carry it (`_ray._boxed`); `extras`: the boxed fixture pack and the budget keeper's
    handle, when the run has either (Ray refs, which must travel as Ray arguments)."""
    case_json, run_index, slug, setup_blob_ = pickle.loads(payload)
    pack_box, keeper = extras if extras is not None else (None, None)
    loop = _loop()
    setup = _setup(setup_blob_ if setup_blob_ is not None else fetched(setup_box), loop)
    pack: FixturePack | None = fetched(pack_box)
    case = RunCase.model_validate(case_json)
    if pack is not None:
        case = case_on_worker(case, pack)
    if keeper is not None:
        install(keeper, setup.options)
    main = loop.create_task(_one_request_at_a_time(_run(case, run_index, slug, setup)))
    try:
        record = loop.run_until_complete(main)
    except BaseException:  # ray.cancel interrupts the task: stop the run (and its agent)
        _cancel_all(loop)
        raise
    return pickle.dumps(record.model_dump(mode="json"), protocol=pickle.HIGHEST_PROTOCOL)


async def _one_request_at_a_time(run: Any) -> Any:
    """A task's run with one model request in flight: at most `--parallel` runs are in
    flight at once, so `--parallel` caps the requests too, as it does without Ray (the
    criteria and metrics judges then ask one after the other)."""
    with request_limit(1):
        return await run


def record_of(value: Any) -> RunRecord:
    """The record a task returned, on the driver. It travels as its JSON-mode values (the
    form `_record` already validated it from, so nothing changes on the way): pickling
    those and validating them back costs half of pickling the record's objects."""
    data = pickle.loads(value) if isinstance(value, bytes) else value
    if not isinstance(data, dict):
        raise TypeError(f"the task returned {type(data).__name__}, not a run record")
    return RunRecord.model_validate(data)


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


async def _run(case: RunCase, run_index: int, slug: str, setup: _Setup) -> RunRecord:
    checks_inline.set(True)  # this task's context only: the process plays just this run
    return await run_one(
        case,
        run_index,
        setup.target,
        setup.options,
        setup.judge,
        slug=slug,
        metrics=setup.metrics,
    )


__all__ = ["record_of", "run_task", "setup_blob", "task_payload", "without_models"]
