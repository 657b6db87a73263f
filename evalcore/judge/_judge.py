"""The criteria judge: every criterion of a run in ONE schema-forced call, K times if asked.

The answer schema has one required field per criterion (`criterion_1` … `criterion_n`), each
`{reason, verdict}` with verdict an enum of pass | fail | inconclusive, so the model cannot
skip, merge or renumber criteria and a malformed answer is retried by `structured_call`.
With `samples > 1` the same question is asked K times concurrently and each criterion takes
the majority (`_vote.majority`); the first sample may come from the response cache, the
others never do (replaying one answer K times would fake agreement). A sample whose reason
contradicts its verdict ("fail" with the reason "Pass") votes `inconclusive`
(`_consistency`).
"""

from __future__ import annotations

import asyncio
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any, Literal, Protocol

from pydantic import BaseModel, ConfigDict, Field, create_model

from ..llm.usage import Usage
from ..prompts import render_prompt
from ..simulator import Utterance
from ._consistency import contradiction
from ._ledger import render_ledger, render_transcript
from ._types import CriterionResult
from ._vote import Vote, majority

if TYPE_CHECKING:
    from langchain_core.language_models import BaseChatModel

    from ..llm import ModelConfig, ResponseCache
    from ..runcase import Criterion

JUDGE_PROMPT = "run/judge"


class CriterionVerdict(BaseModel):
    """The verdict on one criterion."""

    model_config = ConfigDict(extra="forbid")

    reason: str = Field(description="One sentence in English naming the turn [Tn] it rests on.")
    verdict: Literal["pass", "fail", "inconclusive"]


def verdict_schema(criteria: Sequence[Criterion]) -> type[BaseModel]:
    """`CriteriaVerdicts` with one required `criterion_<n>` field per criterion."""
    fields: dict[str, Any] = {
        f"criterion_{n}": (CriterionVerdict, Field(description=f"Criterion {n}: {c.text}"))
        for n, c in enumerate(criteria, start=1)
    }
    model = create_model("CriteriaVerdicts", __config__=ConfigDict(extra="forbid"), **fields)
    model.__doc__ = "A verdict and a one-sentence reason for every numbered criterion."
    return model


@dataclass(frozen=True)
class JudgeSettings:
    """How runs are judged for a whole command."""

    model: ModelConfig | None = None
    """None: no judge model; criteria are reported `unjudged`."""
    chat: BaseChatModel | None = None
    cache: ResponseCache | None = None
    samples: int = 1
    prompt: str = JUDGE_PROMPT
    """A prompt name under prompts/, a file, or a literal template (same placeholders)."""

    @property
    def engine(self) -> str:
        return "none" if self.model is None else "llm"

    def with_chat(self) -> JudgeSettings:
        """These settings with the chat model built once (raises `ConfigError` if it can't)."""
        if self.model is None or self.chat is not None:
            return self
        # start-up: langchain_core, langchain_openai, langsmith and 1 casegen module
        from ..llm import make_chat_model

        return replace(self, chat=make_chat_model(self.model))


@dataclass
class JudgeOutcome:
    """Per-criterion results of one run, and what judging cost."""

    results: list[CriterionResult]
    judged: bool
    engine: str
    model: str | None
    samples: int
    usage: Usage = field(default_factory=Usage)


class Judge(Protocol):
    engine: str
    model: str | None

    async def judge(
        self,
        criteria: Sequence[Criterion],
        transcript: Sequence[Utterance],
        events: Sequence[Mapping[str, Any]],
    ) -> JudgeOutcome: ...


def unjudged(criteria: Sequence[Criterion], reason: str) -> list[CriterionResult]:
    """Every criterion as `unjudged` with `reason` (never counted as passed)."""
    return [
        CriterionResult(index=n, id=c.id, criterion=c.text, verdict="unjudged", reason=reason)
        for n, c in enumerate(criteria, start=1)
    ]


NO_MODEL = "no judge model configured: this run covers assertions only"


class NoJudge:
    """The judge when no model is configured: criteria stay unjudged, nothing is called."""

    engine = "none"
    model: str | None = None

    async def judge(
        self,
        criteria: Sequence[Criterion],
        transcript: Sequence[Utterance],
        events: Sequence[Mapping[str, Any]],
    ) -> JudgeOutcome:
        return JudgeOutcome(
            unjudged(criteria, NO_MODEL),
            judged=not criteria,
            engine=self.engine,
            model=None,
            samples=0,
        )


class LLMJudge:
    """One structured call per sample, all criteria at once."""

    engine = "llm"

    def __init__(self, settings: JudgeSettings) -> None:
        if settings.model is None:
            raise ValueError("LLMJudge needs a model")
        if settings.samples < 1:
            raise ValueError("samples must be at least 1")
        self.settings = settings.with_chat()
        self.config = settings.model
        self.model: str | None = settings.model.model

    def messages(
        self,
        criteria: Sequence[Criterion],
        transcript: Sequence[Utterance],
        events: Sequence[Mapping[str, Any]],
    ) -> list[tuple[str, str]]:
        criteria_text = "\n".join(f"{n}. {c.text}" for n, c in enumerate(criteria, start=1))
        return render_prompt(
            self.settings.prompt,
            criteria_text=criteria_text,
            transcript=render_transcript(transcript),
            event_ledger=render_ledger(events),
        ).messages

    async def judge(
        self,
        criteria: Sequence[Criterion],
        transcript: Sequence[Utterance],
        events: Sequence[Mapping[str, Any]],
    ) -> JudgeOutcome:
        """Raises `LLMError` when a sample cannot be had: the run is then errored."""
        # start-up: langchain_core, langsmith, openai and 10 casegen modules
        from ..llm import structured_call

        if not criteria:
            return JudgeOutcome([], judged=True, engine=self.engine, model=self.model, samples=0)
        schema = verdict_schema(criteria)
        messages = self.messages(criteria, transcript, events)
        answers = await asyncio.gather(
            *(
                structured_call(
                    self.settings.chat,
                    messages,
                    schema,
                    config=self.config,
                    cache=self.settings.cache,
                    no_cache=sample > 0,
                    kind="judge",
                )
                for sample in range(self.settings.samples)
            )
        )
        usage = sum((a.usage for a in answers), Usage())
        results = []
        for n, criterion in enumerate(criteria, start=1):
            votes = [
                checked_vote(v.verdict, v.reason)
                for v in (getattr(a.value, f"criterion_{n}") for a in answers)
            ]
            tally = majority(votes)
            results.append(
                CriterionResult(
                    index=n,
                    id=criterion.id,
                    criterion=criterion.text,
                    verdict=tally.verdict,
                    reason=tally.reason,
                    votes=tally.votes if len(votes) > 1 else {},
                    disagreement=tally.disagreement,
                )
            )
        return JudgeOutcome(
            results,
            judged=True,
            engine=self.engine,
            model=self.model,
            samples=self.settings.samples,
            usage=usage,
        )


def checked_vote(verdict: Literal["pass", "fail", "inconclusive"], reason: str) -> Vote:
    """One sample's vote; a reason that contradicts its verdict makes it inconclusive."""
    problem = contradiction(verdict, reason)
    return Vote("inconclusive", problem) if problem else Vote(verdict, reason.strip())


def make_judge(settings: JudgeSettings) -> Judge:
    """`LLMJudge` when a model is configured, else `NoJudge` (criteria unjudged)."""
    return NoJudge() if settings.model is None else LLMJudge(settings)


__all__ = [
    "JUDGE_PROMPT",
    "NO_MODEL",
    "CriterionVerdict",
    "Judge",
    "JudgeOutcome",
    "JudgeSettings",
    "LLMJudge",
    "NoJudge",
    "checked_vote",
    "make_judge",
    "unjudged",
    "verdict_schema",
]
