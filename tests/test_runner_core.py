"""The runner end to end with in-process targets: play, events, checks, judge, verdicts."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest
from pydantic import SecretStr

from evalcore.agents import AgentMessage, AgentReply, FinalRecord, UserTurn
from evalcore.judge import JudgeSettings
from evalcore.llm import ModelConfig
from evalcore.runner import (
    Criterion,
    ResultsWriter,
    RunCase,
    RunOptions,
    RunTrace,
    SimulationSpec,
    event_log,
    register_checks,
    run_cases,
)
from evalcore.runner.checks import _EVALUATORS
from evalcore.runner.testing import FunctionTarget, ScriptedChatModel, answers, mantle_echo
from evalcore.simulator import SimulatorSettings

CONTEXT = '1. Say "I lost my card"\n2. Say "Send a new one"'


def case(
    slug: str = "lost_card",
    *,
    context: str = CONTEXT,
    checks: Any = None,
    criteria: list[str] | None = None,
    **extra: Any,
) -> RunCase:
    return RunCase(
        slug=slug,
        name=slug.replace("_", " "),
        dialect=extra.pop("dialect", "mantle"),
        path=f"{slug}.yml",
        setup={"initial_slots": {}},
        simulate=extra.pop("simulate", SimulationSpec(context=context)),
        checks=checks if checks is not None else [{"skill_activated": {"skill_id": "support"}}],
        criteria=[Criterion(id=str(i), text=t) for i, t in enumerate(criteria or [], 1)],
        **extra,
    )


def model(**overrides: Any) -> ModelConfig:
    values: dict[str, Any] = {
        "model": "m",
        "api_key": SecretStr("k"),
        "max_retries": 0,
        "retry_base_delay_s": 0.001,
        "structured_output": "function_calling",
    }
    return ModelConfig(**(values | overrides))


METRICS = {
    "helpfulness": 4,
    "repair_quality": 4,
    "coherence": 4,
    "tone": 4,
    "task_completion": True,
    "reason": "[T1] fine.",
}


def judged(*replies: Any, samples: int = 1) -> JudgeSettings:
    """A judge model giving `replies` to the criteria calls, in order (the metrics judge's
    calls, which share the model, get fixed scores)."""
    criteria = answers(*replies)

    def answer(messages: list[Any], name: str) -> Any:
        return METRICS if name == "QualityMetrics" else criteria(messages, name)

    return JudgeSettings(model=model(), chat=ScriptedChatModel(answer=answer), samples=samples)


def verdict(*pairs: str) -> dict[str, Any]:
    return {
        f"criterion_{n}": {"reason": f"reason {n}", "verdict": v}
        for n, v in enumerate(pairs, start=1)
    }


# --- a whole run --------------------------------------------------------------------------


async def test_offline_run_passes_on_assertions_only() -> None:
    target = FunctionTarget(mantle_echo)
    report = await run_cases([case(criteria=["The agent is polite"])], target)
    (record,) = report.records
    assert record.status == "passed" and not record.judged
    assert record.verdict_label == "PASS (assertions only)"
    assert record.criteria[0].verdict == "unjudged" and not record.criteria[0].passed
    assert record.criteria_summary.passed == 0
    assert record.simulator.engine == "offline" and "offline" in (record.simulator.note or "")
    assert record.judge.engine == "none"
    assert record.stop_reason == "simulator_done"
    assert record.turns == 2
    assert [(u.turn, u.role, u.text) for u in record.transcript] == [
        (0, "agent", "Hi, how can I help?"),
        (1, "user", "I lost my card"),
        (1, "agent", "You said: I lost my card"),
        (2, "user", "Send a new one"),
        (2, "agent", "You said: Send a new one"),
    ]
    assert record.conversation_id == "sim-lost_card-1"
    assert [t.turn for t in record.latency.per_turn] == [0, 1, 2]
    assert report.exit_code == 0 and target.closed == 1


async def test_failed_assertion_fails_the_run() -> None:
    checks = [{"skill_completed": {"skill_id": "support"}}]
    report = await run_cases([case(checks=checks)], FunctionTarget(mantle_echo))
    (record,) = report.records
    assert record.status == "failed"
    assert record.assertions[0]["passed"] is False
    assert report.exit_code == 1


async def test_judged_pass_and_inconclusive() -> None:
    options = RunOptions(judge=judged(verdict("pass", "pass"), verdict("pass", "inconclusive")))
    cases = [case("a", criteria=["x", "y"]), case("b", criteria=["x", "y"])]
    report = await run_cases(
        cases, FunctionTarget(mantle_echo), RunOptions(judge=options.judge, parallel=1)
    )
    a, b = report.records
    assert a.status == "passed" and a.judged and a.verdict_label == "PASS"
    assert a.criteria_summary.all_passed
    assert b.status == "failed" and b.criteria[1].verdict == "inconclusive"
    assert report.exit_code == 1


async def test_judge_samples_disagreement_is_recorded() -> None:
    options = RunOptions(judge=judged(verdict("pass"), verdict("fail"), verdict("pass"), samples=3))
    report = await run_cases([case(criteria=["x"])], FunctionTarget(mantle_echo), options)
    (criterion,) = report.records[0].criteria
    assert criterion.verdict == "pass" and criterion.disagreement
    assert criterion.votes == {"pass": 2, "fail": 1}
    assert report.records[0].judge.samples == 3 and report.records[0].judge.usage.calls == 3


async def test_judge_model_failure_errors_the_run() -> None:
    options = RunOptions(judge=judged(ValueError("boom")))
    report = await run_cases([case(criteria=["x"])], FunctionTarget(mantle_echo), options)
    (record,) = report.records
    # An exception the model client does not classify: still errored, never failed.
    assert record.status == "errored" and record.error == "judge failed: ValueError: boom"
    assert report.exit_code == 3


async def test_invalid_judge_output_errors_the_run() -> None:
    options = RunOptions(judge=judged({"bad": 1}, {"bad": 1}))
    report = await run_cases([case(criteria=["x"])], FunctionTarget(mantle_echo), options)
    (record,) = report.records
    assert record.status == "errored" and record.error.startswith("judge model error")
    assert record.criteria[0].verdict == "unjudged"


async def test_llm_simulator_empty_twice_errors_the_run() -> None:
    chat = ScriptedChatModel(
        answer=answers({"message": "", "done": False}, {"message": "", "done": False})
    )
    options = RunOptions(simulator=SimulatorSettings(model=model(), chat=chat))
    report = await run_cases([case()], FunctionTarget(mantle_echo), options)
    (record,) = report.records
    assert record.status == "errored"
    assert "simulator" in record.error and "empty" in record.error
    assert record.simulator.engine == "llm" and record.simulator.usage.calls == 2
    assert record.turns == 0 and record.transcript[0].text == "Hi, how can I help?"


async def test_llm_simulator_plays_until_done() -> None:
    chat = ScriptedChatModel(
        answer=answers(
            {"message": "I lost my card", "done": False}, {"message": "bye", "done": False}
        )
    )
    options = RunOptions(simulator=SimulatorSettings(model=model(), chat=chat))
    report = await run_cases([case()], FunctionTarget(mantle_echo), options)
    (record,) = report.records
    assert record.stop_reason == "agent_ended"  # mantle_echo ends on "bye"
    assert record.turns == 2 and record.simulator.usage.calls == 2


async def test_offline_without_quoted_lines_is_errored_not_failed() -> None:
    target = FunctionTarget(mantle_echo)
    report = await run_cases([case(context="You are calm. Be polite throughout.")], target)
    (record,) = report.records
    assert record.status == "errored"
    assert "offline simulator needs quoted user lines" in record.error
    assert target.opened == 0 and report.exit_code == 3


# --- turns, limits and failures ----------------------------------------------------------


async def test_max_turns_ends_the_conversation() -> None:
    context = "\n".join(f'{n}. Say "line {n}"' for n in range(1, 8))
    report = await run_cases(
        [case(context=context)], FunctionTarget(mantle_echo), RunOptions(max_turns=3)
    )
    (record,) = report.records
    assert record.turns == 3 and record.stop_reason == "max_turns" and record.passed


async def test_anychat_script_plays_exactly_before_simulation() -> None:
    seen: list[UserTurn] = []

    def respond(turn: UserTurn, state: dict[str, Any]) -> AgentReply:
        seen.append(turn)
        return AgentReply(messages=[AgentMessage(text="ok")])

    script = [
        UserTurn(type="text", text="Hi"),
        UserTurn(type="chip", chip="opt-yes"),
        UserTurn(type="slot", slot=0, fallback="first"),
        UserTurn(type="system", event="optOut"),
    ]
    anychat = case(
        "book",
        dialect="anychat",
        script=script,
        checks={},
        simulate=SimulationSpec(goal="Book", knows=["Name: Dana", "Insurer: Delta"], max_turns=1),
    )
    report = await run_cases([anychat], FunctionTarget(respond))
    assert [t.type for t in seen] == ["start", "text", "chip", "slot", "system", "text"]
    assert seen[-1].text == "Name: Dana"  # simulate.maxTurns = 1 stops after one line
    assert report.records[0].stop_reason == "simulate_max_turns"
    assert [t.source for t in report.records[0].latency.per_turn] == [
        "start",
        "script",
        "script",
        "script",
        "script",
        "simulator",
    ]


async def test_base44_prompt_is_one_text_turn() -> None:
    seen: list[UserTurn] = []

    def respond(turn: UserTurn, state: dict[str, Any]) -> AgentReply:
        seen.append(turn)
        return AgentReply()

    base44 = RunCase(
        slug="todo-x",
        name="x",
        dialect="base44",
        path="eval.json",
        setup={"fixture": "."},
        prompt="Create the entities",
        checks={},
    )
    report = await run_cases([base44], FunctionTarget(respond))
    assert [(t.type, t.text) for t in seen] == [("start", None), ("text", "Create the entities")]
    assert report.records[0].stop_reason == "script_done"
    assert report.records[0].simulator.engine == "scripted"


async def test_agent_failure_errors_only_that_run() -> None:
    def respond(turn: UserTurn, state: dict[str, Any]) -> AgentReply:
        if turn.text == "I lost my card" and state.setdefault("fail", True):
            raise ConnectionError("agent down")
        return mantle_echo(turn, state)

    failing = FunctionTarget(respond)
    report = await run_cases([case("a"), case("b", context='1. Say "hello"')], failing)
    a, b = report.records
    assert a.status == "errored" and "failed on turn 1: ConnectionError: agent down" in a.error
    assert a.latency.per_turn[-1].latency_ms is None  # the failed turn is recorded
    assert b.status == "passed"
    assert report.exit_code == 3 and failing.closed == 2


async def test_turn_timeout_errors_the_run() -> None:
    async def slow(turn: UserTurn, state: dict[str, Any]) -> AgentReply:
        if turn.type != "start":
            await asyncio.sleep(5)
        return AgentReply()

    report = await run_cases([case()], FunctionTarget(slow), RunOptions(turn_timeout_s=0.05))
    (record,) = report.records
    assert record.status == "errored"
    assert record.error == "the agent did not answer turn 1 within 0.05s"


async def test_run_timeout_errors_the_run() -> None:
    context = "\n".join(f'{n}. Say "line {n}"' for n in range(1, 30))
    target = FunctionTarget(mantle_echo, delay_s=0.02)
    report = await run_cases([case(context=context)], target, RunOptions(timeout_s=0.1))
    (record,) = report.records
    assert record.status == "errored" and "0.1s run timeout" in record.error
    assert 0 < record.turns < 29


async def test_unreachable_agent_is_errored() -> None:
    class Down:
        spec = "test:down"

        async def open(self, case: Any, run_index: int) -> Any:
            raise OSError("connection refused")

    report = await run_cases([case()], Down())
    assert report.records[0].status == "errored"
    assert "could not open a session" in report.records[0].error
    assert report.exit_code == 3


def test_limits_follow_the_target() -> None:
    class Slow:
        timeout_s = 900.0

    assert RunOptions().limits(object()) == (120.0, 600.0)
    assert RunOptions().limits(Slow()) == (930.0, 990.0)
    assert RunOptions(turn_timeout_s=5, timeout_s=50).limits(Slow()) == (5, 50)
    with pytest.raises(ValueError):
        RunOptions(parallel=0)


# --- events -----------------------------------------------------------------------------


async def test_event_log_gets_user_and_bot_events() -> None:
    def respond(turn: UserTurn, state: dict[str, Any]) -> AgentReply:
        if turn.type == "start":
            return AgentReply(messages=[AgentMessage(text="Hi", response="utter_greet")])
        return AgentReply(
            messages=[AgentMessage(text="Done", buttons=[{"title": "Yes", "payload": "/y"}])],
            events=[
                {"event": "tool_executed", "tool_name": "a", "source": "local", "arguments": {}},
                {"event": "tool_executed", "tool_name": "b", "source": "local", "arguments": {}},
            ],
        )

    checks = [
        {
            "tools_within_one_turn": {
                "calls": [
                    {"tool_executed": {"tool_name": "a", "source": "local"}},
                    {"tool_executed": {"tool_name": "b", "source": "local"}},
                ],
                "allow_extra_calls": False,
            }
        },
        {"bot_uttered": {"utter_name": "utter_greet"}},
        {"bot_uttered": {"buttons": [{"title": "Yes", "payload": "/y"}]}},
    ]
    report = await run_cases([case(checks=checks, context='1. Say "go"')], FunctionTarget(respond))
    record = report.records[0]
    assert [e["event"] for e in record.events] == [
        "bot",
        "user",
        "tool_executed",
        "tool_executed",
        "bot",
    ]
    assert record.events[0]["metadata"] == {"utter_action": "utter_greet"}
    assert all(a["passed"] for a in record.assertions), record.assertions


async def test_tools_in_different_turns_are_not_within_one_turn() -> None:
    def respond(turn: UserTurn, state: dict[str, Any]) -> AgentReply:
        name = {"one": "a", "two": "b"}.get(turn.text or "")
        events = [{"event": "tool_executed", "tool_name": name, "source": "local"}] if name else []
        return AgentReply(events=events)

    within = {
        "tools_within_one_turn": {
            "calls": [
                {"tool_executed": {"tool_name": "a", "source": "local"}},
                {"tool_executed": {"tool_name": "b", "source": "local"}},
            ],
            "allow_extra_calls": True,
        }
    }
    report = await run_cases(
        [case(checks=[within], context='1. Say "one"\n2. Say "two"')], FunctionTarget(respond)
    )
    assert report.records[0].status == "failed"


async def test_authoritative_log_wins() -> None:
    target = FunctionTarget(mantle_echo, final_events=True)
    report = await run_cases([case()], target)
    events = report.records[0].events
    assert [e["event"] for e in events].count("user") == 2
    assert events[0] == {
        "event": "bot",
        "text": "Hi, how can I help?",
        "metadata": {"utter_action": "utter_greet"},
    }


def test_event_log_keeps_a_turns_own_user_event() -> None:
    from evalcore.runner import TurnTrace

    turn = TurnTrace(
        1,
        UserTurn(type="text", text="hi"),
        AgentReply(events=[{"event": "user", "text": "hi"}]),
        "script",
        0.0,
        1.0,
    )
    assert [e["event"] for e in event_log([turn])] == ["user"]
    assert event_log([turn], FinalRecord(events=[{"event": "x"}])) == [{"event": "x"}]


# --- checks registry --------------------------------------------------------------------


async def test_dialect_checks_are_dispatched_through_the_registry() -> None:
    seen: list[RunTrace] = []

    @register_checks("testdialect")
    def evaluate(checks: Any, trace: RunTrace) -> list[dict[str, Any]]:
        seen.append(trace)
        return [
            {
                "index": 0,
                "type": "lastReply",
                "passed": trace.last_reply is not None,
                "detail": "a reply came",
            },
            {"type": "never", "passed": False},
        ]

    try:
        custom = case(dialect="testdialect", checks={"lastReply": True})
        report = await run_cases([custom], FunctionTarget(mantle_echo))
    finally:
        _EVALUATORS.pop("testdialect", None)
    record = report.records[0]
    assert record.assertions == [
        {"index": 0, "type": "lastReply", "passed": True, "detail": "a reply came"},
        {"index": 1, "type": "never", "passed": False, "detail": ""},
    ]
    assert record.status == "failed"
    trace = seen[0]
    assert len(trace.user_turns) == 2 and trace.messages[0].text == "Hi, how can I help?"


async def test_checks_without_an_evaluator_error_the_run() -> None:
    report = await run_cases(
        [case(dialect="nodialect", checks={"x": 1})], FunctionTarget(mantle_echo)
    )
    assert report.records[0].status == "errored"
    assert "no checks evaluator is registered for nodialect" in report.records[0].error


async def test_malformed_agent_events_error_the_run() -> None:
    def respond(turn: UserTurn, state: dict[str, Any]) -> AgentReply:
        # Rasa's tracker reader would crash on buttons that are not a list
        return AgentReply(events=[{"event": "bot", "text": "x", "data": {"buttons": "Yes"}}])

    report = await run_cases(
        [case(checks=[{"memory_was_set": [{"name": "a.b"}]}])], FunctionTarget(respond)
    )
    assert report.records[0].status == "errored"
    assert "events cannot be checked" in report.records[0].error


# --- many runs ----------------------------------------------------------------------------


async def test_runs_and_samples() -> None:
    sampled = case("sampled", samples=3)
    report = await run_cases([sampled, case("once")], FunctionTarget(mantle_echo))
    assert [(r.scenario_slug, r.run_index) for r in report.records] == [
        ("sampled", 1),
        ("sampled", 2),
        ("sampled", 3),
        ("once", 1),
    ]
    report = await run_cases([sampled], FunctionTarget(mantle_echo), RunOptions(runs=2))
    assert len(report.records) == 2


async def test_duplicate_slugs_are_made_unique() -> None:
    report = await run_cases([case("same"), case("same")], FunctionTarget(mantle_echo))
    assert [r.scenario_slug for r in report.records] == ["same", "same-2"]


async def test_parallel_runs_overlap() -> None:
    target = FunctionTarget(mantle_echo, delay_s=0.02)
    cases = [case(f"c{i}") for i in range(8)]
    await run_cases(cases, target, RunOptions(parallel=4))
    # overlap is read from the target (conversations open at once), not from wall time,
    # which a loaded machine stretches for the parallel run as much as for the serial one
    assert target.max_open == 4
    serial_target = FunctionTarget(mantle_echo, delay_s=0.02)
    await run_cases(cases, serial_target, RunOptions(parallel=1))
    assert serial_target.max_open == 1


async def test_cancellation_writes_finished_runs(tmp_path: Path) -> None:
    async def respond(turn: UserTurn, state: dict[str, Any]) -> AgentReply:
        if turn.text == "slow":
            await asyncio.sleep(30)
        return mantle_echo(turn, state)

    writer = ResultsWriter(tmp_path, timestamp="2026-01-01_00-00-00")
    finished: list[str] = []
    cases = [case("quick", context='1. Say "hi"'), case("stuck", context='1. Say "slow"')]
    task = asyncio.create_task(
        run_cases(
            cases,
            FunctionTarget(respond),
            results=writer,
            on_run=lambda r: finished.append(r.scenario_slug),
        )
    )
    for _ in range(200):
        await asyncio.sleep(0.01)
        if finished:
            break
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    assert finished == ["quick"]
    assert (writer.dir / "quick" / "run_1.json").is_file()
    assert not (writer.dir / "stuck").exists()
    summary = (writer.dir / "summary.json").read_text("utf-8")
    assert '"interrupted": true' in summary and '"scenario_slug": "quick"' in summary
    assert '"runs_planned": 2' in summary


def test_mantle_scenarios_expand_environment_variables(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from evalcore.runner import load_run_cases

    monkeypatch.setenv("CALLER_PHONE", "+15550100")
    monkeypatch.delenv("NOT_SET_ANYWHERE", raising=False)
    path = tmp_path / "phone.yml"
    path.write_text(
        "scenario:\n  name: Phone\n  simulation_context: |\n"
        '    1. Say "my number is ${CALLER_PHONE}, code ${NOT_SET_ANYWHERE}"\n'
        "  setup:\n    initial_slots:\n      project.caller_phone: ${CALLER_PHONE}\n",
        "utf-8",
    )
    (loaded,) = load_run_cases(path)
    assert loaded.setup == {"initial_slots": {"project.caller_phone": "+15550100"}}
    assert "my number is +15550100, code ${NOT_SET_ANYWHERE}" in loaded.simulate.context


def test_the_built_in_checks_evaluator_loads_once_under_concurrent_first_use(monkeypatch):
    """Checks run in worker threads: every thread that asks first must get the evaluator."""
    import sys
    import threading

    from evalcore.runner import checks

    monkeypatch.setattr(checks, "_TRIED", set())
    monkeypatch.setattr(checks, "_EVALUATORS", {})
    monkeypatch.delitem(sys.modules, "evalcore.runner.checks.mantle", raising=False)
    barrier = threading.Barrier(8)
    found: list[object] = []

    def first_use() -> None:
        barrier.wait()
        found.append(checks.checks_evaluator("mantle"))

    threads = [threading.Thread(target=first_use) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(found) == 8 and all(f is not None for f in found)
