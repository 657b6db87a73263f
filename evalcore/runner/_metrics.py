"""Quality metrics for a finished run: asked of the metrics judge, recorded, never gating.

Which dialects' results carry them is the dialect's to say (`Dialect.quality_metrics`: Mantle,
whose run files have Rasa's `scale_metrics` and `task_completion`). A run that errored, or
played no user turn, has nothing to rate; whatever goes wrong here leaves the metrics null with
the reason and the run's verdict as it was.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import Any

from ..dialects import get_dialect
from ..judge import LLMMetricsJudge, MetricsOutcome, NoMetricsJudge
from ..simulator import Utterance
from ._record import EngineUse

log = logging.getLogger("casegen.runner")

MetricsJudge = NoMetricsJudge | LLMMetricsJudge


def carries_metrics(dialect: str) -> bool:
    try:
        return bool(getattr(get_dialect(dialect), "quality_metrics", False))
    except Exception:  # an unknown dialect name carries none
        return False


async def measure_run(
    dialect: str,
    judge: MetricsJudge | None,
    transcript: Sequence[Utterance],
    *,
    error: str | None,
    user_turns: int,
) -> MetricsOutcome:
    """The run's metrics, or null ones with the reason (`judge` None: switched off)."""
    if not carries_metrics(dialect):
        return MetricsOutcome(note=f"not measured: {dialect} results carry no quality metrics")
    if judge is None:
        return MetricsOutcome(note="not measured: metrics were switched off (--no-metrics)")
    if error is not None:
        return MetricsOutcome(note="not measured: the run errored", engine=judge.engine)
    if user_turns == 0:
        return MetricsOutcome(note="not measured: no user turn was played", engine=judge.engine)
    try:
        return await judge.measure(transcript)
    except Exception as exc:  # never gating: an unclassified failure is a note
        log.exception("metrics judge crashed")
        return MetricsOutcome(
            note=f"not measured: metrics judge failed: {type(exc).__name__}: {exc}",
            engine=judge.engine,
            model=judge.model,
        )


def metrics_fields(metrics: MetricsOutcome | None) -> dict[str, Any]:
    """The record's metrics fields."""
    if metrics is None:  # the run crashed before it could be measured
        return {"metrics_note": "not measured: the run errored"}
    return {
        "scale_metrics": metrics.scale_metrics,
        "task_completion": metrics.task_completion,
        "metrics_reason": metrics.reason,
        "metrics_note": metrics.note,
        "metrics_judge": EngineUse(engine=metrics.engine, model=metrics.model, usage=metrics.usage),
    }


__all__ = ["MetricsJudge", "carries_metrics", "measure_run", "metrics_fields"]
