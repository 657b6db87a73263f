"""What one run produced (`_Outcome`, filled in step by step) and the `RunRecord` it becomes:
latencies, tallies, engine use, redaction of anything an agent echoed."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from ..agents import AgentTarget, FinalRecord
from ..assertions import AssertionResult
from ..judge import CriterionResult, MetricsOutcome
from ..redact import redact_fresh
from ..runcase import RunCase
from ..simulator import Simulator
from ._conversation import Conversation
from ._events import event_log, transcript
from ._metrics import metrics_fields
from ._options import RunOptions
from ._record import EngineUse, Latency, RunRecord, TurnLatency, tally


@dataclass
class _Outcome:
    """What one run produced so far; filled in step by step, turned into a record."""

    stop_reason: str = "error"
    error: str | None = None
    conversation: Conversation | None = None
    final: FinalRecord = field(default_factory=FinalRecord)
    events: list[dict[str, Any]] = field(default_factory=list)
    assertions: list[AssertionResult] = field(default_factory=list)
    criteria: list[CriterionResult] = field(default_factory=list)
    simulator: Simulator | None = None
    judge_use: EngineUse = field(default_factory=lambda: EngineUse(engine="none"))
    conversation_id: str | None = None
    metrics: MetricsOutcome | None = None
    traceback: str | None = None
    """Kept in the record's meta when an unexpected exception errored the run."""


def _record(
    case: RunCase,
    run_index: int,
    slug: str,
    target: AgentTarget,
    started: datetime,
    duration_s: float,
    out: _Outcome,
    status: Any,
    judged: bool,
    options: RunOptions,
) -> RunRecord:
    turns = out.conversation.turns if out.conversation is not None else []
    latencies = [t.latency_ms for t in turns if t.latency_ms is not None]
    gaps = [t.gap_ms for t in turns if t.gap_ms is not None]
    ttfts = [t.ttft_ms for t in turns if t.ttft_ms is not None]
    passed_assertions = sum(a.passed for a in out.assertions)
    passed_criteria = sum(c.passed for c in out.criteria)
    record = RunRecord(
        scenario_name=case.name,
        scenario_slug=slug,
        case_path=case.path,
        dialect=case.dialect,
        target=getattr(target, "spec", type(target).__name__),
        run_index=run_index,
        timestamp=started.isoformat(timespec="seconds"),
        conversation_id=out.conversation_id,
        status=status,
        judged=judged,
        error=out.error,
        stop_reason=out.stop_reason if out.error is None else "error",
        eval_passed=status == "passed",
        criteria=out.criteria,
        criteria_summary=tally(passed_criteria, len(out.criteria)),
        assertions=[a.to_json() for a in out.assertions],
        assertions_summary=tally(passed_assertions, len(out.assertions)),
        latency=Latency(
            per_turn=[
                TurnLatency(
                    turn=t.number,
                    source=t.source,
                    latency_ms=t.latency_ms,
                    gap_ms=t.gap_ms,
                    ttft_ms=t.ttft_ms,
                )
                for t in turns
            ],
            avg_ttft_ms=_mean(ttfts),
            avg_turn_latency_ms=_mean(latencies),
            avg_gap_ms=_mean(gaps),
        ),
        turns=sum(1 for t in turns if t.number > 0),
        transcript=transcript(turns),
        events=out.events or (event_log(turns, out.final) if turns else []),
        simulator=_simulator_use(case, out.simulator, options),
        judge=out.judge_use,
        duration_s=round(duration_s, 3),
        meta={**out.final.meta, **({"traceback": out.traceback} if out.traceback else {})},
        **metrics_fields(out.metrics),
    )
    # Everything a run file, summary, JUnit report or `--json` shows comes from the record:
    # an agent or endpoint that echoed a key (an error body, `env` output) is masked here.
    return RunRecord.model_validate(redact_fresh(record.model_dump(mode="json")))


def _simulator_use(case: RunCase, simulator: Simulator | None, options: RunOptions) -> EngineUse:
    if case.simulate is None:
        return EngineUse(engine="scripted", note="scripted turns only; no simulated user")
    if simulator is None:  # it could not be built for this case (the run errored)
        model = options.simulator.model
        return EngineUse(
            engine=options.simulator.engine,
            model=model.model if model else None,
            note=None if model else "offline: no simulator model configured",
        )
    note = None
    if simulator.engine == "offline":
        source = getattr(simulator, "source", "quoted lines")
        note = f"offline: no simulator model configured; played the {source}"
    return EngineUse(
        engine=simulator.engine, model=simulator.model, usage=simulator.usage, note=note
    )


def _mean(values: Sequence[float]) -> float | None:
    return round(sum(values) / len(values), 2) if values else None


__all__ = ["_Outcome", "_record"]
