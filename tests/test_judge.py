"""The criteria judge: ledger, one schema-forced call, samples and majority, unjudged."""

from __future__ import annotations

from typing import Any

import pytest
from pydantic import SecretStr
from stub_openai import StubOpenAI, invalid_json, ok, stub_fixture

from evalcore.judge import (
    JudgeSettings,
    LLMJudge,
    NoJudge,
    Vote,
    ledger_lines,
    majority,
    make_judge,
    render_transcript,
    tool_status,
)
from evalcore.llm import LLMError, ModelConfig
from evalcore.runner import Criterion
from evalcore.runner.testing import ScriptedChatModel, answers
from evalcore.simulator import Utterance

openai_stub = stub_fixture()

CRITERIA = [
    Criterion(id="1", text="The agent blocks the card before ordering a new one"),
    Criterion(id="no-double-ask", text="The agent does not ask for the reason twice"),
]
TRANSCRIPT = [
    Utterance(0, "agent", "Hi!"),
    Utterance(1, "user", "My card was stolen"),
    Utterance(1, "agent", "I have blocked it."),
]
EVENTS: list[dict[str, Any]] = [
    {"event": "bot", "text": "Hi!", "metadata": {"utter_action": "utter_greet"}},
    {"event": "user", "text": "My card was stolen"},
    {"event": "skill_activated", "skill_id": "card_replace"},
    {
        "event": "ordered_block_completed",
        "skill_id": "card_replace",
        "block_id": "pick_card",
        "step_id": "select_card",
    },
    {"event": "memory_set", "key": "card_replace.replacement_reason", "value": "stolen"},
    {
        "event": "tool_executed",
        "tool_name": "block_card",
        "arguments": {"reason": "stolen"},
        "source": "local",
        "result": {"blocked": True},
        "is_error": False,
    },
    {"event": "action", "name": "action_listen"},
    {"event": "bot", "text": "I have blocked it.", "metadata": {"utter_action": "utter_blocked"}},
]


# --- transcript and ledger ----------------------------------------------------------------


def test_ledger_is_anchored_by_turn() -> None:
    assert ledger_lines(EVENTS) == [
        "[T0] action: utter_greet",
        "[T1] skill_activated card_replace",
        "[T1] ordered_block_completed card_replace/pick_card (step select_card)",
        '[T1] memory_set card_replace.replacement_reason = "stolen"',
        '[T1] tool: block_card(reason="stolen") → ok',
        "[T1] action: utter_blocked",
    ]


@pytest.mark.parametrize(
    ("result", "is_error", "expected"),
    [
        ({"order_id": "R-1"}, False, "ok"),
        (None, False, "ok (empty)"),
        ({}, False, "ok (empty)"),
        ([], False, "ok (empty)"),
        ({"error": "card not found"}, False, "ok (reports error)"),
        ({"status": "failed"}, False, "ok (reports error)"),
        ({"success": False}, False, "ok (reports error)"),
        ("Error: no such card", False, "ok (reports error)"),
        ({"order_id": "R-1"}, True, "ERROR"),
    ],
)
def test_tool_status(result: Any, is_error: bool, expected: str) -> None:
    assert tool_status(result, is_error=is_error) == expected


def test_ledger_mcp_anychat_and_other_events() -> None:
    lines = ledger_lines(
        [
            {
                "event": "tool_executed",
                "tool_name": "lookup",
                "source": "mcp",
                "mcp_server": "crm",
                "arguments": {},
                "result": None,
                "is_error": True,
                "error_message": "timeout",
            },
            {
                "event": "tool_called",
                "name": "check_availability",
                "args": {"day": "fri"},
                "result": {"slots": [1]},
            },
            {"event": "playbook_switched", "from": "general", "to": "book"},
        ]
    )
    assert lines == [
        "[T0] tool: crm:lookup() → ERROR: timeout",
        '[T0] tool: check_availability(day="fri") → ok',
        '[T0] playbook_switched {"from": "general", "to": "book"}',
    ]


def test_transcript_lines() -> None:
    assert render_transcript(TRANSCRIPT).splitlines() == [
        "[T0] agent: Hi!",
        "[T1] user: My card was stolen",
        "[T1] agent: I have blocked it.",
    ]
    assert render_transcript([]) == "(empty conversation)"


# --- majority -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("verdicts", "winner", "disagreement"),
    [
        (["pass"], "pass", False),
        (["pass", "pass", "fail"], "pass", True),
        (["fail", "inconclusive", "fail"], "fail", True),
        (["pass", "fail"], "inconclusive", True),
        (["pass", "fail", "inconclusive"], "inconclusive", True),
        (["inconclusive", "inconclusive", "pass"], "inconclusive", True),
    ],
)
def test_majority(verdicts: list[str], winner: str, disagreement: bool) -> None:
    tally = majority([Vote(v, f"because {i}") for i, v in enumerate(verdicts)])  # type: ignore[arg-type]
    assert tally.verdict == winner
    assert tally.disagreement is disagreement
    assert sum(tally.votes.values()) == len(verdicts)


def test_tie_reason_lists_the_tied_verdicts() -> None:
    tally = majority([Vote("pass", "a"), Vote("fail", "b")])
    assert tally.reason == "the judge samples tied (1 fail, 1 pass)"


# --- the judge ----------------------------------------------------------------------------


def config(**overrides: Any) -> ModelConfig:
    values: dict[str, Any] = {
        "model": "judge-model",
        "api_key": SecretStr("k"),
        "max_retries": 1,
        "retry_base_delay_s": 0.001,
        "structured_output": "function_calling",
    }
    return ModelConfig(**(values | overrides))


def verdicts(*pairs: tuple[str, str]) -> dict[str, Any]:
    return {
        f"criterion_{n}": {"reason": reason, "verdict": verdict}
        for n, (verdict, reason) in enumerate(pairs, start=1)
    }


def judge_with(*items: Any, samples: int = 1) -> tuple[LLMJudge, ScriptedChatModel]:
    chat = ScriptedChatModel(answer=answers(*items))
    judge = make_judge(JudgeSettings(model=config(), chat=chat, samples=samples))
    assert isinstance(judge, LLMJudge)
    return judge, chat


async def test_one_call_judges_every_criterion() -> None:
    judge, chat = judge_with(
        verdicts(("pass", "[T1] block_card ran."), ("inconclusive", "The reason never came up."))
    )
    outcome = await judge.judge(CRITERIA, TRANSCRIPT, EVENTS)
    assert len(chat.calls) == 1
    assert [(r.id, r.verdict) for r in outcome.results] == [
        ("1", "pass"),
        ("no-double-ask", "inconclusive"),
    ]
    assert outcome.results[0].passed and not outcome.results[1].passed
    assert outcome.judged and outcome.usage.calls == 1
    prompt = "\n".join(str(m.content) for m in chat.calls[0])
    assert "1. The agent blocks the card" in prompt
    assert "2. The agent does not ask for the reason twice" in prompt
    assert '[T1] tool: block_card(reason="stolen") → ok' in prompt
    assert "[T1] user: My card was stolen" in prompt


async def test_an_answer_missing_a_criterion_is_retried() -> None:
    partial = {"criterion_1": {"reason": "ok", "verdict": "pass"}}
    judge, chat = judge_with(partial, verdicts(("pass", "a"), ("fail", "b")))
    outcome = await judge.judge(CRITERIA, TRANSCRIPT, EVENTS)
    assert len(chat.calls) == 2
    assert [r.verdict for r in outcome.results] == ["pass", "fail"]


async def test_samples_vote_and_disagreement_is_reported() -> None:
    judge, chat = judge_with(
        verdicts(("pass", "p1"), ("fail", "f1")),
        verdicts(("pass", "p2"), ("pass", "p2")),
        verdicts(("fail", "f3"), ("fail", "f3")),
        samples=3,
    )
    outcome = await judge.judge(CRITERIA, TRANSCRIPT, EVENTS)
    assert len(chat.calls) == 3 and outcome.samples == 3 and outcome.usage.calls == 3
    first, second = outcome.results
    assert (first.verdict, first.votes, first.disagreement) == (
        "pass",
        {"pass": 2, "fail": 1},
        True,
    )
    assert first.reason == "p1"
    assert (second.verdict, second.votes) == ("fail", {"pass": 1, "fail": 2})


async def test_tied_samples_are_inconclusive() -> None:
    judge, _ = judge_with(
        verdicts(("pass", "a"), ("pass", "a")), verdicts(("fail", "b"), ("pass", "a")), samples=2
    )
    outcome = await judge.judge(CRITERIA, TRANSCRIPT, EVENTS)
    assert outcome.results[0].verdict == "inconclusive"
    assert outcome.results[0].disagreement
    assert outcome.results[1].verdict == "pass" and not outcome.results[1].disagreement


async def test_model_failure_raises_for_the_runner_to_error_the_run() -> None:
    judge, _ = judge_with({"nonsense": True}, {"nonsense": True})
    with pytest.raises(LLMError):
        await judge.judge(CRITERIA, TRANSCRIPT, EVENTS)


async def test_no_model_leaves_criteria_unjudged_never_passed() -> None:
    judge = make_judge(JudgeSettings())
    assert isinstance(judge, NoJudge)
    outcome = await judge.judge(CRITERIA, TRANSCRIPT, EVENTS)
    assert [r.verdict for r in outcome.results] == ["unjudged", "unjudged"]
    assert not any(r.passed for r in outcome.results)
    assert not outcome.judged
    assert (await judge.judge([], TRANSCRIPT, EVENTS)).judged  # nothing to judge


async def test_judge_through_the_openai_client_and_stub(openai_stub: StubOpenAI) -> None:
    openai_stub.script(invalid_json(), ok(verdicts(("pass", "a"), ("fail", "b"))))
    settings = JudgeSettings(
        model=ModelConfig(
            model="stub-model",
            base_url=openai_stub.base_url,
            api_key=SecretStr("stub-key"),
            timeout_s=5,
            max_retries=2,
            retry_base_delay_s=0.001,
        )
    )
    outcome = await make_judge(settings).judge(CRITERIA, TRANSCRIPT, EVENTS)
    assert [r.verdict for r in outcome.results] == ["pass", "fail"]
    request = openai_stub.requests[-1]
    assert request.schema_name == "CriteriaVerdicts"
    assert set(request.schema["required"]) == {"criterion_1", "criterion_2"}
    assert outcome.usage.calls == 2
