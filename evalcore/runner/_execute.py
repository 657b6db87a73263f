"""Running cases against a target: each run isolated, many at once, always reported.

    report = await run_cases(cases, target, RunOptions(parallel=8), results=writer)
    report.exit_code        # 0 all passed · 1 some failed · 3 some errored, none failed

One run = open a fresh session, play the conversation (`_conversation.play`) under the run
timeout, close the session, build the event log, evaluate the dialect's checks, judge the
criteria, decide. Whatever goes wrong inside one run (the agent, a timeout, a model) ends as
an errored record for that run; the other runs go on. Each finished run is written at once,
and the summary is written even when the command is cancelled (Ctrl-C), so what finished is
never lost.
"""

from __future__ import annotations

import asyncio
import logging
import time
import traceback
from collections.abc import Callable, Sequence
from contextvars import ContextVar
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING, Protocol

from ..agents import AgentSession, AgentTarget, FinalRecord, discard_workdir
from ..errors import UserError
from ..judge import Judge, MetricsOutcome, make_judge, make_metrics_judge, unjudged
from ..llm import LLMError
from ..llm.inflight import request_limit
from ..llm.usage import Usage
from ..redact import redact
from ..runcase import RunCase
from ..simulator import SimulationError, make_simulator
from ._conversation import Conversation, HarnessError, play
from ._events import event_log
from ._metrics import MetricsJudge, measure_run
from ._options import RunOptions
from ._outcome import _Outcome, _record
from ._record import EngineUse, RunRecord, decide
from ._report import RunReport
from ._trace import RunTrace
from .checks import NoEvaluatorError, evaluate_checks

if TYPE_CHECKING:
    from ._results import ResultsWriter

log = logging.getLogger("casegen.runner")

#: Set inside a Ray task (`_ray_worker`), whose process plays one run at a time: its checks
#: run on the event loop, without the hop to a thread and back.
checks_inline: ContextVar[bool] = ContextVar("checks_inline", default=False)

NOT_JUDGED_ERRORED = "not judged: the run errored"
NOT_JUDGED_EMPTY = "not judged: no user turn was played, so there is nothing to judge"


class RunExecutor(Protocol):
    """Runs planned runs elsewhere (a Ray cluster) and hands each record to `deliver`."""

    async def run(
        self,
        planned: Sequence[PlannedRun],
        target: AgentTarget,
        options: RunOptions,
        deliver: Callable[[PlannedRun, RunRecord], None],
    ) -> None: ...


@dataclass(frozen=True)
class PlannedRun:
    case: RunCase
    slug: str
    index: int
    order: int


async def run_one(
    case: RunCase,
    run_index: int,
    target: AgentTarget,
    options: RunOptions,
    judge: Judge,
    *,
    slug: str | None = None,
    metrics: MetricsJudge | None = None,
) -> RunRecord:
    """One run of `case`, never raising for agent, timeout or model failures (`metrics`:
    the metrics judge; None: metrics are not measured, and the record says so)."""
    started_wall = datetime.now().astimezone()
    started = time.monotonic()
    out = _Outcome(judge_use=EngineUse(engine=judge.engine, model=judge.model))
    try:
        await _converse(case, run_index, target, options, out)
        if out.error is None:
            # the criteria judge and the metrics judge read the same finished conversation:
            # their model calls go out together, not one after the other
            done = await asyncio.gather(
                _check_and_judge(case, run_index, judge, options, out),
                _measure(case, metrics, out),
                return_exceptions=True,
            )
            for result in done:
                if isinstance(result, BaseException):
                    raise result
            out.metrics = done[1]  # type: ignore[assignment]
        if out.metrics is None or out.error is not None:  # an errored run carries none
            out.metrics = await _measure(case, metrics, out)
    except (asyncio.CancelledError, KeyboardInterrupt):
        _discard_workdir(out.final)
        raise
    except Exception as exc:  # a bug must not take the other runs down; keep its traceback
        log.exception("run %s #%d crashed", case.slug, run_index)
        out.error = f"internal error: {type(exc).__name__}: {exc}"
        out.traceback = traceback.format_exc()
    _discard_workdir(out.final)
    if case.criteria and not out.criteria:
        out.criteria = unjudged(case.criteria, NOT_JUDGED_ERRORED)
    status, judged = decide(out.error, out.assertions, out.criteria)
    return _record(
        case,
        run_index,
        slug or case.slug,
        target,
        started_wall,
        time.monotonic() - started,
        out,
        status,
        judged,
        options,
    )


async def _measure(case: RunCase, metrics: MetricsJudge | None, out: _Outcome) -> MetricsOutcome:
    """The run's quality metrics as far as it got (none for an errored run, with why)."""
    conversation = out.conversation
    return await measure_run(
        case.dialect,
        metrics,
        conversation.history() if conversation else [],
        error=out.error,
        user_turns=conversation.user_turns if conversation else 0,
    )


async def _converse(
    case: RunCase, run_index: int, target: AgentTarget, options: RunOptions, out: _Outcome
) -> None:
    """Open, play and close the session, recording what happened in `out`."""
    try:
        if case.simulate is not None:
            out.simulator = make_simulator(
                case.simulate, dialect=case.dialect, settings=options.simulator
            )
    except SimulationError as exc:
        out.error = f"simulator: {exc}"
        return
    turn_s, run_s = options.limits(target)
    try:
        async with asyncio.timeout(turn_s):
            session: AgentSession = await target.open(case, run_index)
    except TimeoutError:
        out.error = f"the agent did not open a session within {turn_s:g}s"
        return
    except Exception as exc:  # unreachable agent, bad spec discovered late, …
        out.error = f"could not open a session with the agent: {_describe(exc)}"
        return
    out.conversation = Conversation(session, turn_s)
    try:
        async with asyncio.timeout(run_s):
            out.stop_reason = await play(
                out.conversation, case, out.simulator, max_turns=options.max_turns
            )
    except TimeoutError:
        out.error = f"the run took longer than the {run_s:g}s run timeout"
    except HarnessError as exc:
        out.error = str(exc)
    except SimulationError as exc:
        out.error = f"simulator: {exc}"
    except LLMError as exc:
        out.error = f"simulator model error: {exc}"
    except Exception as exc:  # the simulator's model client failed unclassified
        out.error = f"simulator failed: {_describe(exc)}"
        out.traceback = traceback.format_exc()
    finally:
        await _close(session, turn_s, out)
    out.conversation_id = _conversation_id(session, out.final)


async def _close(session: AgentSession, turn_s: float, out: _Outcome) -> None:
    try:
        async with asyncio.timeout(turn_s):
            final = await session.close()
        if isinstance(final, FinalRecord):
            out.final = final
    except TimeoutError:
        out.error = out.error or f"the agent did not close the session within {turn_s:g}s"
    except Exception as exc:
        out.error = out.error or f"closing the session failed: {_describe(exc)}"


async def _check_and_judge(
    case: RunCase, run_index: int, judge: Judge, options: RunOptions, out: _Outcome
) -> None:
    conversation = out.conversation
    assert conversation is not None
    out.events = event_log(
        conversation.turns,
        out.final,
        started_at=time.time() - (time.monotonic() - conversation.clock),
    )
    trace = RunTrace(
        case=case,
        run_index=run_index,
        turns=tuple(conversation.turns),
        events=tuple(out.events),
        transcript=tuple(conversation.history()),
        final=out.final,
    )
    try:
        # A check may run a command (base44 `command-passes`): off the event loop, so the
        # other runs' turns keep their time; a Ray task's process plays only its own run.
        if checks_inline.get():
            out.assertions = evaluate_checks(case.checks, trace)
        else:
            out.assertions = await asyncio.to_thread(evaluate_checks, case.checks, trace)
    except NoEvaluatorError as exc:
        out.error = str(exc)
        return
    except UserError as exc:
        out.error = f"the agent's events cannot be checked: {exc.message}"
        return
    if conversation.user_turns == 0:  # an empty transcript is never scored
        out.criteria = unjudged(case.criteria, NOT_JUDGED_EMPTY)
        return
    try:
        outcome = await judge.judge(case.criteria, trace.transcript, trace.events)
    except LLMError as exc:
        out.error = f"judge model error: {exc}"
        out.judge_use = EngineUse(engine=judge.engine, model=judge.model, usage=exc.usage)
        return
    except Exception as exc:  # the model client failed in a way it does not classify
        out.error = f"judge failed: {_describe(exc)}"
        out.traceback = traceback.format_exc()
        out.judge_use = EngineUse(engine=judge.engine, model=judge.model)
        return
    out.criteria = outcome.results
    out.judge_use = EngineUse(
        engine=outcome.engine,
        model=outcome.model,
        usage=outcome.usage,
        samples=outcome.samples or None,
        note=None if outcome.judged else "no judge model: criteria unjudged",
    )


def _discard_workdir(final: FinalRecord) -> None:
    """Remove a command target's project copy once the checks have read it."""
    if final.workdir:
        discard_workdir(final)


def _conversation_id(session: AgentSession, final: FinalRecord) -> str | None:
    value = final.meta.get("conversation_id") or getattr(session, "conversation_id", None)
    return str(value) if value else None


def _describe(exc: BaseException) -> str:
    text = " ".join(str(exc).split())
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__


# --- many runs --------------------------------------------------------------------------


def plan_runs(
    cases: Sequence[RunCase], options: RunOptions, first_index: Callable[[str], int] | None = None
) -> list[PlannedRun]:
    """Every (case, run) to make, with slugs made unique (`<slug>-2` for a repeat)."""
    seen: dict[str, int] = {}
    planned: list[PlannedRun] = []
    for case in cases:
        count = seen.get(case.slug, 0) + 1
        seen[case.slug] = count
        slug = case.slug if count == 1 else f"{case.slug}-{count}"
        start = first_index(slug) if first_index else 1
        base = len(planned)
        planned.extend(
            PlannedRun(case, slug, start + i, base + i) for i in range(options.runs_for(case))
        )
    return planned


async def run_cases(
    cases: Sequence[RunCase],
    target: AgentTarget,
    options: RunOptions | None = None,
    *,
    results: ResultsWriter | None = None,
    on_run: Callable[[RunRecord], None] | None = None,
    executor: RunExecutor | None = None,
) -> RunReport:
    """Run every case `options.runs_for(case)` times, `options.parallel` at once, with at
    most `options.parallel` model requests in flight across them (`evalcore.llm.inflight`).

    Args:
        cases: What to run (e.g. from `collect_cases`).
        target: The agent (`resolve_target(spec)`, or any `AgentTarget`).
        options: Limits, concurrency, simulator and judge settings.
        results: Where to write run files and summaries as runs finish; None: nowhere.
        on_run: Called with each record as its run finishes (progress display).
        executor: Where the runs happen; None: here, as asyncio tasks
            (`RayExecutor` from `ray_executor.py`: as Ray tasks on a cluster).

    Raises:
        ConfigError: a configured model cannot be used (before any run starts).
        asyncio.CancelledError: the command was cancelled; finished runs are written first.
    """
    options = (options or RunOptions()).with_models()
    judge = make_judge(options.judge)
    metrics = make_metrics_judge(options.judge) if options.metrics else None
    planned = plan_runs(cases, options, results.first_run_number if results else None)
    timestamp = results.timestamp if results else datetime.now().strftime("%Y-%m-%d_%H-%M-%S")
    semaphore = asyncio.Semaphore(options.parallel)
    finished: list[tuple[int, RunRecord]] = []
    started = time.monotonic()
    stop = asyncio.Event()  # -x: set by the first failed or errored run

    async def one(run: PlannedRun) -> None:
        async with semaphore:
            if stop.is_set():
                return
            record = await run_one(
                run.case, run.index, target, options, judge, slug=run.slug, metrics=metrics
            )
        deliver(run, record)

    def deliver(run: PlannedRun, record: RunRecord) -> None:
        if options.exitfirst and not record.passed:
            stop.set()
        finished.append((run.order, record))
        if results is not None:
            results.write_run(record)
        if on_run is not None:
            on_run(record)

    interrupted = True
    report = RunReport(
        [],
        redact(getattr(target, "spec", "?")),  # `http://user:pass@…` in a spec stays private
        timestamp,
        0.0,
        str(results.dir) if results else None,
        planned=len(planned),
        target_note=getattr(target, "caveat", None),
    )
    try:
        if executor is not None:
            await executor.run(planned, target, options, deliver)
        else:
            # `parallel` caps the model requests in flight too: simulators, judges and
            # metrics judges together (a finishing run asks its two judges at once).
            with request_limit(options.parallel):
                async with asyncio.TaskGroup() as group:
                    for run in planned:
                        group.create_task(one(run))
        interrupted = False
    finally:
        report.records = [record for _, record in sorted(finished, key=lambda x: x[0])]
        report.wall_clock_s = round(time.monotonic() - started, 3)
        report.interrupted = interrupted
        report.stopped_early = stop.is_set() and len(report.records) < len(planned)
        if results is not None:
            results.write_summary(report)
    return report


def total_usage(records: Sequence[RunRecord]) -> Usage:
    return sum(
        (
            r.simulator.usage
            + r.judge.usage
            + (r.metrics_judge.usage if r.metrics_judge else Usage())
            for r in records
        ),
        Usage(),
    )


__all__ = [
    "NOT_JUDGED_EMPTY",
    "NOT_JUDGED_ERRORED",
    "PlannedRun",
    "RunExecutor",
    "RunReport",
    "plan_runs",
    "run_cases",
    "run_one",
    "total_usage",
]
