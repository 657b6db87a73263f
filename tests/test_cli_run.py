"""`casegen run`: exit codes, --json, results folder, JUnit, usage errors, models."""

from __future__ import annotations

import json
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from conftest import EXAMPLES
from stub_openai import RecordedRequest, StubOpenAI, stub_fixture

from evalcore.agents import AgentReply, UserTurn
from evalcore.runner import target_override
from evalcore.runner.testing import FunctionTarget, mantle_echo

openai_stub = stub_fixture()

SCENARIO = """\
scenario:
  name: {name}
  simulation_context: |
    You are a calm customer.
    1. Say "{first}"
    2. Say "thanks"
  goals:
    criteria:
      - The agent answers every message
    assertions:
      - {assertion}:
          skill_id: support
"""


def scenario(
    folder: Path, slug: str, *, assertion: str = "skill_activated", first: str = "hello"
) -> Path:
    path = folder / f"{slug}.yml"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(
        SCENARIO.format(name=slug.replace("_", " "), assertion=assertion, first=first), "utf-8"
    )
    return path


def failing_on_boom(turn: UserTurn, state: dict[str, Any]) -> AgentReply:
    if turn.text == "boom":
        raise ConnectionError("agent unreachable")
    return mantle_echo(turn, state)


@pytest.fixture(autouse=True)
def fake_target(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    for name in (
        "CASEGEN_MODEL",
        "CASEGEN_JUDGE_MODEL",
        "CASEGEN_SIMULATOR_MODEL",
        "OPENAI_BASE_URL",
        "OPENAI_API_KEY",
    ):
        monkeypatch.delenv(name, raising=False)
    with target_override("fake", lambda spec: FunctionTarget(failing_on_boom, spec=spec)):
        yield


def test_all_pass_exits_0_and_says_assertions_only(tmp_path: Path, run_cli) -> None:
    scenario(tmp_path / "cases", "greets")
    code, out, _ = run_cli(
        "run", tmp_path / "cases", "--target", "fake:echo", "--results", tmp_path / "results"
    )
    assert code == 0, out
    assert "PASS (assertions only)" in out and "greets run 1" in out
    assert "cover assertions only" in out and "offline simulator" in out
    assert "1/1 runs passed" in out


def test_failed_run_exits_1(tmp_path: Path, run_cli) -> None:
    scenario(tmp_path, "ok")
    scenario(tmp_path, "completes", assertion="skill_completed")
    code, out, _ = run_cli(
        "run", tmp_path, "--target", "fake:echo", "--results", tmp_path / "results"
    )
    assert code == 1
    assert "assertion skill_completed" in out


def test_errored_without_failures_exits_3(tmp_path: Path, run_cli) -> None:
    scenario(tmp_path, "ok")
    scenario(tmp_path, "down", first="boom")
    code, out, _ = run_cli(
        "run", tmp_path, "--target", "fake:echo", "--results", tmp_path / "results"
    )
    assert code == 3
    assert "ERROR" in out and "agent unreachable" in out and "1 errored" in out


def test_failed_and_errored_exits_1(tmp_path: Path, run_cli) -> None:
    scenario(tmp_path, "completes", assertion="skill_completed")
    scenario(tmp_path, "down", first="boom")
    code, _, _ = run_cli(
        "run", tmp_path, "--target", "fake:echo", "--results", tmp_path / "results"
    )
    assert code == 1


def test_json_output(tmp_path: Path, run_cli_json) -> None:
    scenario(tmp_path, "greets")
    code, data = run_cli_json(
        "run", tmp_path, "--target", "fake:echo", "--runs", "2", "--results", tmp_path / "results"
    )
    assert code == 0
    assert set(data) >= {"results_dir", "runs", "summary"}
    assert data["summary"] | {} == data["summary"] and data["summary"]["passed"] == 2
    assert (data["summary"]["failed"], data["summary"]["errored"]) == (0, 0)
    run = data["runs"][1]
    assert {"case", "slug", "run", "passed", "errored", "assertions", "criteria", "turns"} <= set(
        run
    )
    assert (run["slug"], run["run"], run["passed"], run["judged"]) == ("greets", 2, True, False)
    assert run["assertions"][0] == {
        "index": 0,
        "type": "skill_activated",
        "passed": True,
        "detail": run["assertions"][0]["detail"],
    }
    assert run["criteria"] == [
        {
            "criterion": "The agent answers every message",
            "verdict": "unjudged",
            "reason": "no judge model configured: this run covers assertions only",
        }
    ]
    assert run["turns"] == 2
    results_dir = Path(data["results_dir"])
    assert (results_dir / "greets" / "run_2.json").is_file()
    assert (results_dir / "summary.json").is_file()


def test_junit_option(tmp_path: Path, run_cli) -> None:
    scenario(tmp_path / "cases", "greets")
    junit = tmp_path / "out" / "junit.xml"
    code, _, _ = run_cli(
        "run",
        tmp_path / "cases",
        "--target",
        "fake:x",
        "--junit",
        junit,
        "--results",
        tmp_path / "results",
    )
    assert code == 0 and "<testcase" in junit.read_text("utf-8")


def test_default_results_dir_is_the_mantle_projects(tmp_path: Path, run_cli) -> None:
    bank = tmp_path / "bank"
    shutil.copytree(EXAMPLES / "bank", bank, ignore=shutil.ignore_patterns("results"))
    code, _, _ = run_cli(
        "run",
        bank / "eval" / "scenarios" / "check_balance_savings_happy.yml",
        "--target",
        "fake:echo",
    )
    assert code == 1  # the echo agent is not a bank
    (stamp,) = (bank / "eval" / "results").iterdir()
    assert (stamp / "check_balance_savings_happy" / "run_1.json").is_file()
    assert (stamp / "summary.txt").is_file()


def test_default_results_dir_elsewhere_is_cwd_results(
    tmp_path: Path, run_cli, monkeypatch: pytest.MonkeyPatch
) -> None:
    scenario(tmp_path / "cases", "greets")
    monkeypatch.chdir(tmp_path)
    code, _, _ = run_cli("run", "cases", "--target", "fake:echo")
    assert code == 0
    (stamp,) = (tmp_path / "results").iterdir()
    assert (stamp / "greets" / "run_1.txt").is_file()


# --- usage errors -------------------------------------------------------------------------


def test_invalid_case_files_are_a_usage_error(tmp_path: Path, run_cli) -> None:
    scenario(tmp_path, "good")
    (tmp_path / "bad.yml").write_text("scenario:\n  name: no context\n", "utf-8")
    (tmp_path / "worse.yml").write_text("scenario:\n  simulation_context: x\n", "utf-8")
    code, out, err = run_cli(
        "run", tmp_path, "--target", "fake:echo", "--results", tmp_path / "results"
    )
    assert code == 2 and out == ""
    assert "2 case files are invalid and cannot be run" in err
    assert "bad.yml" in err and "worse.yml" in err and "casegen validate" in err
    assert not (tmp_path / "results").exists()


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["missing-folder"], "no such file or folder"),
        (["--target", "nosuch:x"], "unknown target scheme 'nosuch'"),
        (["--parallel", "0"], "Invalid value"),
    ],
)
def test_usage_errors(tmp_path: Path, run_cli, args: list[str], message: str) -> None:
    scenario(tmp_path / "cases", "greets")
    base = ["run", tmp_path / "cases", "--target", "fake:echo", "--results", tmp_path / "r"]
    if args[0] == "missing-folder":
        base[1] = tmp_path / "missing"
    else:
        base += args
    code, _, err = run_cli(*base)
    assert code == 2
    assert message in err


def test_no_cases_found(tmp_path: Path, run_cli) -> None:
    (tmp_path / "empty").mkdir()
    code, _, err = run_cli("run", tmp_path / "empty", "--target", "fake:echo")
    assert code == 2 and "no case files found" in err


def test_model_without_key_is_a_usage_error(tmp_path: Path, run_cli) -> None:
    scenario(tmp_path / "cases", "greets")
    code, _, err = run_cli(
        "run",
        tmp_path / "cases",
        "--target",
        "fake:echo",
        "--model",
        "gpt-test",
        "--results",
        tmp_path / "r",
    )
    assert code == 2 and "no API key" in err


# --- with a model (stub server) -----------------------------------------------------------


def test_simulator_and_judge_through_the_stub(
    tmp_path: Path, run_cli_json, openai_stub: StubOpenAI, monkeypatch: pytest.MonkeyPatch
) -> None:
    said: list[str] = []

    def handler(request: RecordedRequest) -> Any:
        if request.schema_name == "SimulatedMessage":
            if said:
                return {"message": "", "done": True}
            said.append("x")
            return {"message": "Hello there", "done": False}
        assert request.schema_name == "CriteriaVerdicts"
        assert "[T1] user: Hello there" in request.text
        return {"criterion_1": {"reason": "[T1] it answered.", "verdict": "pass"}}

    openai_stub.handler = handler
    monkeypatch.setenv("OPENAI_BASE_URL", openai_stub.base_url)
    monkeypatch.setenv("OPENAI_API_KEY", openai_stub.api_key)
    scenario(tmp_path / "cases", "greets")
    code, data = run_cli_json(
        "run",
        tmp_path / "cases",
        "--target",
        "fake:echo",
        "--model",
        "stub-model",
        "--judge-samples",
        "3",
        "--results",
        tmp_path / "r",
    )
    assert code == 0, data
    (run,) = data["runs"]
    assert run["judged"] is True and run["turns"] == 1
    assert run["criteria"][0]["verdict"] == "pass"
    assert run["criteria"][0]["votes"] == {"pass": 3}
    record = json.loads((Path(data["results_dir"]) / "greets" / "run_1.json").read_text())
    assert record["simulator"]["engine"] == "llm" and record["simulator"]["model"] == "stub-model"
    assert record["simulator"]["usage"]["calls"] == 2
    assert record["judge"]["usage"]["calls"] == 3 and record["judge"]["samples"] == 3


def test_judge_model_offline_leaves_criteria_unjudged(
    tmp_path: Path, run_cli_json, openai_stub: StubOpenAI, monkeypatch: pytest.MonkeyPatch
) -> None:
    openai_stub.handler = lambda request: {"message": "", "done": True}
    monkeypatch.setenv("OPENAI_BASE_URL", openai_stub.base_url)
    monkeypatch.setenv("OPENAI_API_KEY", openai_stub.api_key)
    scenario(tmp_path / "cases", "greets")
    code, data = run_cli_json(
        "run",
        tmp_path / "cases",
        "--target",
        "fake:echo",
        "--model",
        "stub-model",
        "--judge-model",
        "offline",
        "--results",
        tmp_path / "r",
    )
    (run,) = data["runs"]
    assert run["judged"] is False and run["criteria"][0]["verdict"] == "unjudged"
    assert all(r.schema_name == "SimulatedMessage" for r in openai_stub.requests)
    # The simulator stopped before its first message: a 0-turn conversation is the
    # simulator's error (exit 3), not a failure of the agent.
    assert code == 3 and run["status"] == "errored" and "0-turn" in run["error"]


# --- demo agents --------------------------------------------------------------------------


def test_bank_demo_offline(tmp_path: Path, run_cli_json) -> None:
    demo = pytest.importorskip("evalcore.agents.demo", reason="demo agents not available yet")
    if not hasattr(demo, "make_demo_target"):
        pytest.skip("demo agents not available yet")
    try:
        demo.make_demo_target("bank")
    except Exception as exc:  # the bank demo is not there yet
        pytest.skip(f"demo:bank not available: {exc}")
    bank = tmp_path / "bank"
    shutil.copytree(EXAMPLES / "bank", bank, ignore=shutil.ignore_patterns("results"))
    scenarios = [
        bank / "eval" / "scenarios" / f"{name}.yml"
        for name in (
            "card_replace_stolen",
            "card_replace_refused_confirmation",
            "check_balance_savings_happy",
            "human_handoff_frustrated_escalation",
        )
    ]
    code, data = run_cli_json("run", *scenarios, "--target", "demo:bank")
    failures = [
        (r["slug"], r["error"], [a for a in r["assertions"] if not a["passed"]])
        for r in data["runs"]
        if not r["passed"]
    ]
    assert code == 0, failures
    results = Path(data["results_dir"])
    assert results.parent == bank / "eval" / "results"
    for scenario_path in scenarios:
        assert (results / scenario_path.stem / "run_1.json").is_file()
        assert (results / scenario_path.stem / "run_1.txt").is_file()
    for name in ("summary.json", "summary.txt", "summary.md"):
        assert (results / name).is_file()
