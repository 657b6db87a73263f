"""`casegen run --executor ray`: each (case, repetition) is a Ray task on a cluster.

    executor = RayExecutor(address=None)        # ray.init(): RAY_ADDRESS, else a local instance
    report = await run_cases(cases, target, options, results=writer, executor=executor)

The driver (the `casegen run` process) plans the runs as the local executor does, submits at
most `--parallel` tasks at once, and writes every record the moment its task returns, into
the same results folder, summary and JUnit. Per task:

- the run itself is `run_one` on the worker, under the same per-turn and per-run timeouts; the
  driver also gives up on a task that outlives them by `GRACE_S` (a hung worker) and records
  the run as errored;
- a worker or node lost mid-run is retried by Ray (`max_retries`, system failures only; an
  exception inside the run is a result, not retried); records are written by the driver, once
  per planned (case, repetition), so a retried run is never counted twice;
- Ctrl-C cancels every outstanding task (`ray.cancel`, which interrupts the run so a command
  agent's process group is stopped), then the finished runs are summarised as usual;
- fixtures travel as Ray objects (`_ray_fixture.py`); the rpm/tpm budget is one for the
  whole cluster (`_ray_budget.py`).

Ray is the `casegen[ray]` extra and is imported only here, when this executor runs.
"""

from __future__ import annotations

import asyncio
import logging
import math
import os
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import TYPE_CHECKING, Any

from ..errors import UserError
from ..judge import unjudged
from ._execute import NOT_JUDGED_ERRORED, PlannedRun, _Outcome, _record
from ._ray_budget import BudgetKeeper, limits_of
from ._ray_fixture import fixture_of, pack_fixtures, shared_context, shared_paths
from ._ray_worker import record_of, run_task, setup_blob, task_payload
from ._record import RunRecord

if TYPE_CHECKING:
    from ..agents import AgentTarget
    from ._options import RunOptions

log = logging.getLogger("casegen.runner.ray")

#: Seconds a task may outlive its run's own limits before the driver gives up on it.
GRACE_S = 120.0
#: On a local instance sized for `--parallel`, runs submitted per slot: one running, one
#: queued, so Ray keeps its workers leased (handing a worker back and leasing it again per
#: run costs ~0.1-0.4 s). On a cluster the driver itself holds `--parallel` (one per slot).
BACKLOG = 2
#: Ray's retries of a task whose worker or node died.
DEFAULT_MAX_RETRIES = 3
EXTRA_HINT = "install the extra: pip install 'casegen[ray]' (or `make test-ray` in a checkout)"


def import_ray() -> Any:
    """`ray`, or a UserError naming the extra."""
    try:
        import ray  # start-up: ray (optional, heavy)
    except ImportError:
        raise UserError(
            "--executor ray needs Ray, which is not installed", hint=EXTRA_HINT
        ) from None
    return ray


@dataclass
class RayExecutor:
    """Runs planned runs as Ray tasks; `run_cases(..., executor=RayExecutor())`."""

    address: str | None = None
    """Cluster to join (`ray://…` or `host:port`); None: `RAY_ADDRESS`, else a local instance."""
    task_cpus: float = 1.0
    """CPUs each run's task asks the scheduler for (fractions allowed)."""
    max_retries: int = DEFAULT_MAX_RETRIES
    local_cpus: int | None = None
    """CPUs of a local instance; None: enough for `--parallel` runs at once."""
    _keeper: Any = field(default=None, init=False, repr=False)
    _local: bool = field(default=False, init=False, repr=False)

    def _init(self, ray: Any, parallel: int) -> None:
        if ray.is_initialized():
            return
        address = self.address or os.environ.get("RAY_ADDRESS") or None
        kwargs: dict[str, Any] = {"log_to_driver": False, "configure_logging": False}
        if address is None:
            # Exactly `parallel` runs fit, so Ray itself holds the limit and the driver can
            # queue runs ahead on warm workers.
            cpus = self.local_cpus or math.ceil(parallel * self.task_cpus)
            kwargs |= {"num_cpus": cpus, "include_dashboard": False}
            self._local = self.local_cpus is None
        try:
            ray.init(address=address, **kwargs)
        except (ConnectionError, RuntimeError, ValueError) as exc:
            raise UserError(
                f"cannot connect to the Ray cluster at {address}: {exc}",
                hint="start one with `ray start --head` and pass its address "
                "(--ray-address or RAY_ADDRESS), or leave both unset for a local instance",
            ) from None

    async def waiting(self) -> int:
        """Runs waiting on the shared rpm/tpm budget right now (0 without one)."""
        if self._keeper is None:
            return 0
        return int(await self._keeper.waiting.remote())

    async def run(
        self,
        planned: Sequence[PlannedRun],
        target: AgentTarget,
        options: RunOptions,
        deliver: Callable[[PlannedRun, RunRecord], None],
    ) -> None:
        """Every planned run, `options.parallel` in flight; `deliver` gets each record."""
        ray = import_ray()
        self._init(ray, options.parallel)
        cases = [run.case for run in planned]
        shipping = not shared_paths()
        packs: dict[str, Any] = (
            {f: ray.put(p) for f, p in pack_fixtures(cases).items()} if shipping else {}
        )
        if limits_of(options):
            self._keeper = ray.remote(num_cpus=0)(BudgetKeeper).remote()
        blob = setup_blob(target, options)
        # A small blob rides inside each task's one argument; a large one goes by ref.
        inline = blob if len(blob) <= INLINE_BYTES else None
        setup_box = None if inline is not None else _boxed(ray, blob)
        task = ray.remote(run_task).options(
            num_cpus=self.task_cpus, max_retries=self.max_retries, retry_exceptions=False
        )
        turn_s, run_s = options.limits(target)
        ahead = BACKLOG if self._local else 1
        # A task submitted ahead of its start may first wait for the run before it.
        deadline = ahead * (run_s + 2 * turn_s) + GRACE_S
        submitted = asyncio.Semaphore(options.parallel * ahead)
        stopped = asyncio.Event()

        async def one(run: PlannedRun) -> None:
            case = run.case if shipping else shared_context(run.case)
            fixture = fixture_of(case)
            pack = packs.get(str(fixture)) if fixture is not None else None
            async with submitted:
                if stopped.is_set():  # -x: a run failed; start no more
                    return
                started = datetime.now().astimezone()
                clock = time.monotonic()
                payload = task_payload(case.model_dump(mode="json"), run.index, run.slug, inline)
                if pack is None and self._keeper is None:
                    ref = (
                        task.remote(payload)
                        if setup_box is None
                        else task.remote(payload, setup_box)
                    )
                else:
                    extras = (None if pack is None else [pack], self._keeper)
                    ref = task.remote(payload, setup_box, extras)
                try:
                    async with asyncio.timeout(deadline):
                        value = await asyncio.wrap_future(ref.future())
                    record = record_of(value)
                except asyncio.CancelledError:
                    ray.cancel(ref, recursive=True)
                    raise
                except TimeoutError:
                    ray.cancel(ref, force=True)
                    error = f"the Ray task did not return within {deadline:g}s; it was cancelled"
                    record = _errored(run, target, options, started, clock, error)
                except Exception as exc:  # the worker, its node or the task's code failed
                    record = _errored(run, target, options, started, clock, _lost(exc, self))
            if options.exitfirst and not record.passed:
                stopped.set()
            deliver(run, record)

        async with asyncio.TaskGroup() as group:
            for run in planned:
                group.create_task(one(run))


#: Pickled size up to which the target and options travel inside each task's arguments.
INLINE_BYTES = 64 * 1024


def _boxed(ray: Any, blob: bytes) -> list[Any]:
    """`[blob]` when it is small (the pickled target and options usually are, well under
    1 KiB), else `[ref]` fetched once per worker. An object ref inside the arguments makes
    the worker a borrower of it, which Ray's reference counting tracks for every task (about
    1.4 ms of CPU per task here); a few hundred bytes cost far less to send along."""
    if len(blob) <= INLINE_BYTES:
        return [blob]
    return [ray.put(blob)]


def _lost(exc: Exception, executor: RayExecutor) -> str:
    name = type(exc).__name__
    if name in {"WorkerCrashedError", "NodeDiedError", "ObjectLostError", "OwnerDiedError"}:
        return (
            f"the Ray worker running this run was lost ({name}) and "
            f"{executor.max_retries} retries did not finish it"
        )
    text = " ".join(str(exc).split())[:2000]
    return f"the Ray task failed: {name}: {text}"


def _errored(
    run: PlannedRun,
    target: AgentTarget,
    options: RunOptions,
    started: datetime,
    clock: float,
    error: str,
) -> RunRecord:
    """The record of a run whose task gave no record of its own."""
    out = _Outcome(error=error)
    if run.case.criteria:
        out.criteria = unjudged(run.case.criteria, NOT_JUDGED_ERRORED)
    return _record(
        run.case,
        run.index,
        run.slug,
        target,
        started,
        time.monotonic() - clock,
        out,
        "errored",
        False,
        options,
    )


__all__ = ["GRACE_S", "RayExecutor", "import_ray"]
