"""The criteria judge: a verdict (pass | fail | inconclusive) and a reason per criterion.

    judge = make_judge(JudgeSettings(model=config, samples=3))
    outcome = await judge.judge(case.criteria, transcript, events)
    [r.verdict for r in outcome.results]

Without a model, `make_judge` gives `NoJudge`: every criterion is `unjudged` and never
counts as passed. The judge reads the transcript and a `[Tn]`-anchored event ledger
(`render_transcript`, `render_ledger`).
"""

from __future__ import annotations

from ._judge import (
    JUDGE_PROMPT,
    NO_MODEL,
    CriterionVerdict,
    Judge,
    JudgeOutcome,
    JudgeSettings,
    LLMJudge,
    NoJudge,
    make_judge,
    unjudged,
    verdict_schema,
)
from ._ledger import ledger_lines, render_ledger, render_transcript, tool_status
from ._metrics import LLMMetricsJudge, MetricsOutcome, NoMetricsJudge, make_metrics_judge
from ._types import CriterionResult, JudgedVerdict, VerdictName
from ._vote import Tally, Vote, majority

__all__ = [
    "JUDGE_PROMPT",
    "NO_MODEL",
    "CriterionResult",
    "CriterionVerdict",
    "Judge",
    "JudgeOutcome",
    "JudgeSettings",
    "JudgedVerdict",
    "LLMJudge",
    "LLMMetricsJudge",
    "MetricsOutcome",
    "NoJudge",
    "NoMetricsJudge",
    "Tally",
    "VerdictName",
    "Vote",
    "ledger_lines",
    "majority",
    "make_judge",
    "make_metrics_judge",
    "render_ledger",
    "render_transcript",
    "tool_status",
    "unjudged",
    "verdict_schema",
]
