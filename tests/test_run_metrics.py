"""The metrics judge: Mantle runs carry Rasa's quality metrics when a model is configured,
null with the reason when none is; metrics never change a run's verdict."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

from langchain_core.messages import AIMessage
from langchain_core.runnables import Runnable, RunnableLambda
from test_runner_core import case, model, verdict

from evalcore.judge import JudgeSettings
from evalcore.runner import ResultsWriter, RunOptions, run_cases, total_usage
from evalcore.runner.testing import FunctionTarget, ScriptedChatModel, mantle_echo

SCORES = {
    "helpfulness": 4,
    "repair_quality": 5,
    "coherence": 3,
    "tone": 4,
    "task_completion": False,
    "reason": "[T2] the agent echoed without doing anything.",
}


def _judge(metrics: Any, criteria: dict[str, Any] | None = None) -> JudgeSettings:
    """A judge model that answers the criteria call and the metrics call by their schema."""

    def answer(messages: list[Any], name: str) -> Any:
        if name == "QualityMetrics":
            return metrics
        return criteria or verdict("pass")

    return JudgeSettings(model=model(), chat=ScriptedChatModel(answer=answer))


async def test_a_model_records_the_metrics_and_they_do_not_gate(tmp_path: Path) -> None:
    writer = ResultsWriter(tmp_path, timestamp="t")
    options = RunOptions(judge=_judge(SCORES))
    report = await run_cases(
        [case(criteria=["The agent is polite"])],
        FunctionTarget(mantle_echo),
        options,
        results=writer,
    )
    (record,) = report.records
    assert record.status == "passed"  # task_completion false does not fail it
    assert record.scale_metrics == {
        "helpfulness": 4,
        "repair_quality": 5,
        "coherence": 3,
        "tone": 4,
        "bot_quality": 4.0,
    }
    assert record.task_completion is False and record.metrics_note is None
    assert record.metrics_reason == "[T2] the agent echoed without doing anything."
    assert record.metrics_judge is not None and record.metrics_judge.usage.calls == 1
    assert total_usage(report.records).calls == 2  # criteria + metrics
    saved = json.loads((writer.dir / "lost_card" / "run_1.json").read_text("utf-8"))
    assert saved["scale_metrics"]["bot_quality"] == 4.0 and saved["task_completion"] is False
    text = (writer.dir / "lost_card" / "run_1.txt").read_text("utf-8")
    assert "  bot_quality: 4/5\n  helpfulness: 4/5" in text
    assert "  task_completion: false" in text


async def test_the_metrics_prompt_sees_the_transcript() -> None:
    judge = _judge(SCORES)
    await run_cases([case()], FunctionTarget(mantle_echo), RunOptions(judge=judge))
    (call,) = judge.chat.calls  # no criteria: only the metrics call
    prompt = "\n".join(str(m.content) for m in call)
    assert "[T1] user: I lost my card" in prompt and "helpfulness" in prompt


async def test_without_a_model_the_metrics_are_null_with_the_reason() -> None:
    report = await run_cases([case()], FunctionTarget(mantle_echo))
    (record,) = report.records
    assert record.scale_metrics is None and record.task_completion is None
    assert record.metrics_note == "not measured: no judge model configured"
    data = record.to_json()
    assert data["scale_metrics"] is None and data["metrics_note"].startswith("not measured")


async def test_a_failing_metrics_call_is_a_note_not_an_error() -> None:
    report = await run_cases(
        [case(criteria=["x"])], FunctionTarget(mantle_echo), RunOptions(judge=_judge({"bad": 1}))
    )
    (record,) = report.records
    assert record.status == "passed" and record.criteria[0].verdict == "pass"
    assert record.scale_metrics is None
    assert record.metrics_note.startswith("not measured: metrics judge model error")


async def test_other_dialects_and_errored_runs_carry_no_metrics() -> None:
    options = RunOptions(judge=_judge(SCORES))
    anychat = case("chat", dialect="anychat", checks={}, simulate=None)
    errored = case("no_lines", context="You are calm. Be polite throughout.")  # no request
    report = await run_cases([anychat, errored], FunctionTarget(mantle_echo), options)
    chat, broken = report.records
    assert chat.scale_metrics is None
    assert chat.metrics_note == "not measured: anychat results carry no quality metrics"
    assert broken.status == "errored" and broken.metrics_note == "not measured: the run errored"


async def test_metrics_can_be_switched_off() -> None:
    judge = _judge(SCORES)
    report = await run_cases(
        [case()], FunctionTarget(mantle_echo), RunOptions(judge=judge, metrics=False)
    )
    (record,) = report.records
    assert record.scale_metrics is None and judge.chat.calls == []
    assert record.metrics_note == "not measured: metrics were switched off (--no-metrics)"


class _AnswersOnlyTogether(ScriptedChatModel):
    """Holds each call until a second one is in flight: calls made one after the other
    never get an answer (the first gives up after a second)."""

    def bind_tools(self, tools: Any, **kwargs: Any) -> Runnable[Any, AIMessage]:
        inner = super().bind_tools(tools, **kwargs)
        both = self.__dict__.setdefault("_both", asyncio.Event())
        in_flight = self.__dict__.setdefault("_in_flight", [])

        async def acall(messages: Any) -> AIMessage:
            in_flight.append(1)
            if len(in_flight) >= 2:
                both.set()
            await asyncio.wait_for(both.wait(), timeout=1.0)
            return await inner.ainvoke(messages)

        return RunnableLambda(lambda m: inner.invoke(m), afunc=acall)


async def test_the_criteria_and_metrics_calls_go_out_together() -> None:
    def answer(messages: list[Any], name: str) -> Any:
        return SCORES if name == "QualityMetrics" else verdict("pass")

    chat = _AnswersOnlyTogether(answer=answer)
    judge = JudgeSettings(model=model(), chat=chat)
    report = await run_cases(
        [case(criteria=["x"])], FunctionTarget(mantle_echo), RunOptions(judge=judge)
    )
    (record,) = report.records
    assert record.status == "passed", record.error
    assert record.criteria[0].verdict == "pass" and record.scale_metrics is not None


async def test_a_run_whose_judge_fails_carries_no_metrics() -> None:
    def answer(messages: list[Any], name: str) -> Any:
        return SCORES if name == "QualityMetrics" else {"bad": 1}

    judge = JudgeSettings(model=model(), chat=ScriptedChatModel(answer=answer))
    report = await run_cases(
        [case(criteria=["x"])], FunctionTarget(mantle_echo), RunOptions(judge=judge)
    )
    (record,) = report.records
    assert record.status == "errored" and record.error.startswith("judge")
    assert record.scale_metrics is None
    assert record.metrics_note == "not measured: the run errored"
