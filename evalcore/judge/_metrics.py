"""The metrics judge: Rasa's quality metrics of one conversation, recorded, never gating.

    metrics = make_metrics_judge(settings)          # settings: the criteria judge's
    outcome = await metrics.measure(transcript)
    outcome.scale_metrics   # {"helpfulness": 4, "repair_quality": 5, "coherence": 4,
                            #  "tone": 5, "bot_quality": 4.5} or None
    outcome.task_completion, outcome.note

Scale metrics are 1–5 and `bot_quality` is their mean; `task_completion` is binary
(reference §4). One structured call per run with `prompts/run/metrics.md` (placeholder
`transcript`, as Rasa's `metrics_judge_prompt`). Metrics never decide a run: without a model,
or when the call fails, they are null and `note` says why, and the run's verdict is unchanged.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from pydantic import BaseModel, ConfigDict, Field

from ..llm.usage import Usage
from ..prompts import render_prompt
from ..simulator import Utterance
from ._ledger import render_transcript

if TYPE_CHECKING:
    from ._judge import JudgeSettings

METRICS_PROMPT = "run/metrics"
SCALE_METRICS = ("helpfulness", "repair_quality", "coherence", "tone")
NO_METRICS_MODEL = "not measured: no judge model configured"


class QualityMetrics(BaseModel):
    """Quality of the agent in one conversation (1 = very poor, 5 = excellent)."""

    model_config = ConfigDict(extra="forbid")

    helpfulness: int = Field(ge=1, le=5)
    repair_quality: int = Field(ge=1, le=5)
    coherence: int = Field(ge=1, le=5)
    tone: int = Field(ge=1, le=5)
    task_completion: bool
    reason: str = Field(description="One sentence in English naming the turn [Tn].")


@dataclass
class MetricsOutcome:
    """What a run records: the metrics, or None and why not."""

    scale_metrics: dict[str, float] | None = None
    task_completion: bool | None = None
    reason: str | None = None
    """The judge's one-sentence reason for its scores."""
    note: str | None = None
    """Why the metrics are null (no model, the call failed, nothing to rate)."""
    engine: str = "none"
    model: str | None = None
    usage: Usage = field(default_factory=Usage)


def scale_of(answer: QualityMetrics) -> dict[str, float]:
    """The four scale metrics and their mean `bot_quality` (Rasa's `scale_metrics`)."""
    scores: dict[str, float] = {name: getattr(answer, name) for name in SCALE_METRICS}
    scores["bot_quality"] = round(sum(scores.values()) / len(SCALE_METRICS), 2)
    return scores


class NoMetricsJudge:
    engine = "none"
    model: str | None = None

    async def measure(self, transcript: Sequence[Utterance]) -> MetricsOutcome:
        return MetricsOutcome(note=NO_METRICS_MODEL)


class LLMMetricsJudge:
    """One structured call per run; a failure is a note, never an error of the run."""

    engine = "llm"

    def __init__(self, settings: JudgeSettings, prompt: str = METRICS_PROMPT) -> None:
        if settings.model is None:
            raise ValueError("LLMMetricsJudge needs a model")
        self.settings = settings.with_chat()
        self.config = settings.model
        self.model: str | None = settings.model.model
        self.prompt = prompt

    def messages(self, transcript: Sequence[Utterance]) -> list[tuple[str, str]]:
        return render_prompt(self.prompt, transcript=render_transcript(transcript)).messages

    async def measure(self, transcript: Sequence[Utterance]) -> MetricsOutcome:
        # start-up: langchain_core, langsmith, openai and 10 casegen modules
        from ..llm import LLMError, structured_call

        try:
            answer = await structured_call(
                self.settings.chat,
                self.messages(transcript),
                QualityMetrics,
                config=self.config,
                cache=self.settings.cache,
            )
        except LLMError as exc:
            return MetricsOutcome(
                note=f"not measured: metrics judge model error: {exc}",
                engine=self.engine,
                model=self.model,
                usage=exc.usage,
            )
        value: QualityMetrics = answer.value
        return MetricsOutcome(
            scale_metrics=scale_of(value),
            task_completion=value.task_completion,
            reason=" ".join(value.reason.split()) or None,
            engine=self.engine,
            model=self.model,
            usage=answer.usage,
        )


def make_metrics_judge(settings: JudgeSettings) -> NoMetricsJudge | LLMMetricsJudge:
    """The metrics judge for the criteria judge's settings (its model, chat and cache)."""
    return NoMetricsJudge() if settings.model is None else LLMMetricsJudge(settings)


__all__ = [
    "METRICS_PROMPT",
    "NO_METRICS_MODEL",
    "SCALE_METRICS",
    "LLMMetricsJudge",
    "MetricsOutcome",
    "NoMetricsJudge",
    "QualityMetrics",
    "make_metrics_judge",
    "scale_of",
]
