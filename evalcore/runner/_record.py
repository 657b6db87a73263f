"""The record of one run: everything `run_N.json` holds, and the run's verdict.

Field names follow Rasa's run files (reference §4: `scenario_slug`, `run_index`,
`conversation_id`, `latency`, `eval_passed`, `criteria`, `criteria_summary`, `assertions`,
`assertions_summary`, `scale_metrics`) with casegen's additions: the three-way `status`,
`judged`, `error`, transcript, events and the engines (with token use) that simulated and
judged the run.

The verdict:

- `errored`: a harness failure (agent unreachable or failing, a timeout, a simulator or
  judge model failure, an offline simulator with nothing to play). Not a verdict on the
  agent, and never counted as failed.
- `failed`: an assertion failed, or a criterion was judged `fail` or `inconclusive`.
- `passed`: every assertion passed and every criterion was judged `pass`, or no judge ran
  (`judged: false`): then the pass covers the assertions only and says so everywhere.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, Field

from ..assertions import AssertionResult
from ..judge import CriterionResult
from ..llm.usage import Usage
from ..simulator import Utterance

Status = Literal["passed", "failed", "errored"]


class TurnLatency(BaseModel):
    turn: int
    source: str
    latency_ms: float | None
    gap_ms: float | None = None
    ttft_ms: float | None = None


class Latency(BaseModel):
    """Timing of the agent's answers (reported, never gating)."""

    per_turn: list[TurnLatency] = Field(default_factory=list)
    avg_ttft_ms: float | None = None
    """Only when the target reports time to first token (streaming targets)."""
    avg_turn_latency_ms: float | None = None
    avg_gap_ms: float | None = None
    """Average time between an answer and the next user message (simulator thinking)."""


class Tally(BaseModel):
    passed: int
    total: int
    all_passed: bool


class EngineUse(BaseModel):
    """Which engine simulated or judged the run, and what it used."""

    engine: str
    """Simulator: `offline`, `llm`, or `scripted` (no simulation); judge: `llm` or `none`."""
    model: str | None = None
    usage: Usage = Field(default_factory=Usage)
    samples: int | None = None
    note: str | None = None


class RunRecord(BaseModel):
    """One run of one case (`<results>/<timestamp>/<slug>/run_N.json`)."""

    scenario_name: str
    scenario_slug: str
    case_path: str
    dialect: str
    target: str
    run_index: int
    timestamp: str
    """When the run started (ISO 8601, local time with offset)."""
    conversation_id: str | None = None
    status: Status
    judged: bool
    """False when criteria were left unjudged: a pass then covers the assertions only."""
    error: str | None = None
    stop_reason: str
    """Why the conversation ended: simulator_done, script_done, max_turns,
    simulate_max_turns, agent_ended, or error."""
    eval_passed: bool
    task_completion: bool | None = None
    """Metrics judge: whether the user's goal was achieved (recorded, never gating)."""
    scale_metrics: dict[str, float] | None = None
    """Metrics judge: helpfulness, repair_quality, coherence, tone (1-5) and their mean
    bot_quality; None when not measured (`metrics_note` says why)."""
    metrics_reason: str | None = None
    """The metrics judge's one-sentence reason for its scores."""
    metrics_note: str | None = None
    """Why the metrics are null: no judge model, the run errored, the call failed."""
    metrics_judge: EngineUse | None = None
    criteria: list[CriterionResult] = Field(default_factory=list)
    criteria_summary: Tally
    assertions: list[dict[str, Any]] = Field(default_factory=list)
    assertions_summary: Tally
    latency: Latency = Field(default_factory=Latency)
    turns: int
    """User turns sent (the session start not counted)."""
    transcript: list[Utterance] = Field(default_factory=list)
    events: list[dict[str, Any]] = Field(default_factory=list)
    simulator: EngineUse
    judge: EngineUse
    duration_s: float
    meta: dict[str, Any] = Field(default_factory=dict)
    """The target's `FinalRecord.meta` (e.g. an Inspector URL)."""

    @property
    def passed(self) -> bool:
        return self.status == "passed"

    @property
    def errored(self) -> bool:
        return self.status == "errored"

    @property
    def verdict_label(self) -> str:
        """`PASS`, `PASS (assertions only)`, `FAIL` or `ERROR`."""
        if self.status == "errored":
            return "ERROR"
        if self.status == "failed":
            return "FAIL"
        return "PASS" if self.judged else "PASS (assertions only)"

    def to_json(self) -> dict[str, Any]:
        data = self.model_dump(mode="json")
        data["passed"] = self.passed
        data["errored"] = self.errored
        data["criteria"] = [c.to_json() for c in self.criteria]
        return data

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> RunRecord:
        """A record read back from `run_N.json` (the computed `passed` keys are dropped)."""
        values = {k: v for k, v in data.items() if k not in ("passed", "errored")}
        criteria = data.get("criteria") or []
        if not isinstance(criteria, list) or not all(isinstance(c, dict) for c in criteria):
            # a results folder may come from a CI artifact: say what is wrong, do not crash
            raise ValueError(
                f"/criteria: expected a list of criterion objects, got {_shape(criteria)}"
            )
        values["criteria"] = [{k: v for k, v in c.items() if k != "passed"} for c in criteria]
        return cls.model_validate(values)

    def failure_reason(self) -> str:
        """Why the run did not pass, in one line: the error, else the first failed
        assertion, else the first criterion judged fail or inconclusive."""
        if self.error:
            return self.error
        for a in self.assertions:
            if not a.get("passed"):
                return f"assertion {a.get('type')}: {a.get('detail')}"
        for c in self.criteria:
            if c.verdict in ("fail", "inconclusive"):
                return f"criterion {c.verdict}: {c.criterion} ({c.reason})"
        return "failed without a recorded reason"

    def recap(self) -> dict[str, Any]:
        """One line of the failure recap (`--json` "failures")."""
        return {
            "status": self.status,
            "slug": self.scenario_slug,
            "run": self.run_index,
            "reason": self.failure_reason(),
            "path": self.case_path,
        }

    def brief(self) -> dict[str, Any]:
        """The `--json` shape of a run."""
        return {
            "case": self.scenario_name,
            "path": self.case_path,
            "slug": self.scenario_slug,
            "run": self.run_index,
            "status": self.status,
            "passed": self.passed,
            "errored": self.errored,
            "judged": self.judged,
            "error": self.error,
            "assertions": self.assertions,
            "criteria": [
                {
                    "criterion": c.criterion,
                    "verdict": c.verdict,
                    "reason": c.reason,
                    **({"votes": c.votes} if c.votes else {}),
                }
                for c in self.criteria
            ],
            "turns": self.turns,
            "duration_s": self.duration_s,
        }


def decide(
    error: str | None, assertions: list[AssertionResult], criteria: list[CriterionResult]
) -> tuple[Status, bool]:
    """The run's status and whether every criterion was judged (see the module docstring)."""
    judged = all(c.verdict != "unjudged" for c in criteria)
    if error is not None:
        return "errored", judged
    if any(not a.passed for a in assertions):
        return "failed", judged
    if any(c.verdict in ("fail", "inconclusive") for c in criteria):
        return "failed", judged
    return "passed", judged


def tally(passed: int, total: int) -> Tally:
    return Tally(passed=passed, total=total, all_passed=passed == total)


def _shape(value: Any) -> str:
    """A short description of a JSON value's type, for messages about bad results."""
    if isinstance(value, list):
        kinds = sorted({type(v).__name__ for v in value if not isinstance(v, dict)})
        return f"a list holding {', '.join(kinds)}"
    return type(value).__name__


__all__ = ["EngineUse", "Latency", "RunRecord", "Status", "Tally", "TurnLatency", "decide", "tally"]
