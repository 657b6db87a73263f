"""Runner and review honesty: nothing is reported as judged, failed or critiqued that was not.

A simulator that is done before its first message errors the run (a 0-turn conversation is
never judged, never an agent FAIL); a judge reason that contradicts its verdict makes the
criterion inconclusive; a review whose every critique call failed is `rules`, not
`rules+llm`; the model's repeated comments are merged.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from test_review_support import BANK, bank_case, fake_model, write_yaml
from test_runner_core import case, judged, model

from agentflows.review import review_paths
from evalcore.judge._consistency import contradiction, stated_verdicts
from evalcore.runner import RunOptions, run_cases
from evalcore.runner._conversation import ZERO_TURNS
from evalcore.runner.testing import FunctionTarget, ScriptedChatModel, answers, mantle_echo
from evalcore.simulator import SimulatorSettings


def _simulating(*steps: dict[str, Any]) -> SimulatorSettings:
    return SimulatorSettings(model=model(), chat=ScriptedChatModel(answer=answers(*steps)))


# --- a 0-turn conversation ---------------------------------------------------------------


async def test_a_simulator_done_at_once_errors_the_run_and_is_never_judged() -> None:
    judge = judged({"criterion_1": {"reason": "[T0] fine", "verdict": "pass"}})
    options = RunOptions(simulator=_simulating({"message": "", "done": True}), judge=judge)
    report = await run_cases(
        [case(criteria=["The agent is polite"])], FunctionTarget(mantle_echo), options
    )
    (record,) = report.records
    assert record.status == "errored" and record.turns == 0
    assert record.error == f"simulator: {ZERO_TURNS}"
    assert record.criteria[0].verdict == "unjudged"
    assert judge.chat.calls == []  # the empty transcript was never sent to the judge
    assert report.failed == 0 and report.exit_code == 3


async def test_a_simulator_done_after_a_turn_is_a_normal_end() -> None:
    options = RunOptions(
        simulator=_simulating(
            {"message": "I lost my card", "done": False}, {"message": "", "done": True}
        )
    )
    report = await run_cases([case()], FunctionTarget(mantle_echo), options)
    (record,) = report.records
    assert (record.status, record.stop_reason, record.turns) == ("passed", "simulator_done", 1)


# --- a judge that contradicts itself ----------------------------------------------------


def test_reasons_that_state_a_verdict_are_read() -> None:
    assert stated_verdicts("Pass") == {"pass"}
    assert stated_verdicts("fail | Pass") == {"fail", "pass"}
    assert stated_verdicts("[T3] the agent ordered before asking → FAIL") == {"fail"}
    assert stated_verdicts("[T2] The criterion is not met: no confirmation.") == {"fail"}
    # Using a verdict word is not stating a verdict.
    assert stated_verdicts("[T2] the payment failed and the agent said so.") == set()
    assert contradiction("fail", "[T4] the agent confirmed first. Verdict: fail") is None
    assert "contradicts its verdict 'fail'" in (contradiction("fail", "Pass") or "")


async def test_a_contradicting_reason_is_inconclusive() -> None:
    answer = {
        "criterion_1": {"reason": "Pass", "verdict": "fail"},
        "criterion_2": {"reason": "[T1] the agent looked it up.", "verdict": "pass"},
    }
    options = RunOptions(judge=judged(answer))
    report = await run_cases([case(criteria=["x", "y"])], FunctionTarget(mantle_echo), options)
    first, second = report.records[0].criteria
    assert first.verdict == "inconclusive"
    assert "contradicts its verdict 'fail'" in first.reason and "“Pass”" in first.reason
    assert second.verdict == "pass"


async def test_a_contradicting_sample_loses_the_vote() -> None:
    samples = [
        {"criterion_1": {"reason": "Pass", "verdict": "fail"}},
        {"criterion_1": {"reason": "[T1] asked first.", "verdict": "pass"}},
        {"criterion_1": {"reason": "[T1] asked first.", "verdict": "pass"}},
    ]
    options = RunOptions(judge=judged(*samples, samples=3))
    report = await run_cases([case(criteria=["x"])], FunctionTarget(mantle_echo), options)
    (criterion,) = report.records[0].criteria
    assert criterion.verdict == "pass" and criterion.votes == {"pass": 2, "inconclusive": 1}


# --- review: what the critique really did -------------------------------------------------


async def test_every_critique_failing_is_reported_as_rules_only(tmp_path: Path) -> None:
    a = write_yaml(tmp_path / "card_replace_a.yml", bank_case("card_replace_damaged"))
    b = write_yaml(tmp_path / "card_replace_b.yml", bank_case("card_replace_stolen"))
    report = await review_paths([a, b], project=BANK, critic=fake_model("not json", "not json"))
    assert report.engine == "rules"
    payload = report.to_json()
    assert payload["engine"] == "rules"
    assert payload["critique"]["ran"] == 0 and payload["critique"]["failed"] == 2
    assert "failed for all 2 cases" in payload["critique"]["note"]


async def test_one_critique_answering_is_rules_plus_llm(tmp_path: Path) -> None:
    a = write_yaml(tmp_path / "card_replace_a.yml", bank_case("card_replace_damaged"))
    b = write_yaml(tmp_path / "card_replace_b.yml", bank_case("card_replace_stolen"))
    critic = fake_model({"comments": []}, "not json")
    report = await review_paths([a, b], project=BANK, critic=critic)
    assert report.engine == "rules+llm:fake-model"
    assert (
        report.to_json()["critique"]["note"]
        == "the llm:fake-model critique failed for 1 of 2 cases"
    )


def test_cli_names_the_failed_critique(run_cli, tmp_path: Path, monkeypatch) -> None:
    from stub_openai import StubOpenAI, server_error

    file = write_yaml(tmp_path / "card_replace_a.yml", bank_case("card_replace_damaged"))
    with StubOpenAI() as stub:
        stub.handler = lambda request: server_error(400)
        monkeypatch.setenv("OPENAI_BASE_URL", stub.base_url)
        monkeypatch.setenv("OPENAI_API_KEY", stub.api_key)
        code, out, _ = run_cli(
            "review", file, "--project", BANK, "--model", "critic-model", "--no-cache"
        )
    assert code == 0
    assert "· engine rules\n" in out and "rules+llm" not in out
    assert "critique failed for all 1 case" in out


async def test_repeated_critique_comments_are_merged(tmp_path: Path) -> None:
    file = write_yaml(tmp_path / "card_replace_x.yml", bank_case("card_replace_damaged"))
    critic = fake_model(
        {
            "comments": [
                {
                    "path": "/scenario/simulation_context",
                    "message": "No stop condition.",
                    "suggestion": "Say when to stop.",
                },
                {
                    "path": "/scenario/simulation_context",
                    "message": "no stop condition",
                    "suggestion": "Add 'then stop'.",
                },
                {"path": "/scenario/simulation_context", "message": "No stop condition!"},
                {"path": "/scenario/name", "message": "No stop condition."},
            ]
        }
    )
    report = await review_paths([file], project=BANK, critic=critic)
    critique = [c for c in report.files[0].comments if c.code == "critique"]
    assert [(c.path, c.message) for c in critique] == [
        ("/scenario/name", "No stop condition."),
        ("/scenario/simulation_context", "No stop condition."),
    ]
    merged = next(c for c in critique if c.path == "/scenario/simulation_context")
    assert merged.suggestion == "Say when to stop. / Add 'then stop'."
