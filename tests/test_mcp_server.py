"""`casegen mcp` through the SDK's stdio client, as a coding agent uses it.

One server process serves the whole module (starting one takes seconds): the calls run once,
in order, in a temporary copy of examples/bank used as the server's folder, and each test
checks what its calls returned.
"""

from __future__ import annotations

import importlib.util
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import anyio
import pytest
from conftest import EXAMPLES
from mcp import Client
from mcp.client.stdio import StdioServerParameters

from agentflows.mcp_server._progress import ProgressSender
from agentflows.mcp_server._results import Unavailable

TOOLS = {
    "list_sources",
    "generate_cases",
    "validate_cases",
    "repair_cases",
    "run_cases",
    "review_cases",
    "triage_results",
    "explain_skill",
    "score_suite",
    "mutate_suite",
    "case_status",
    "report_results",
    "doctor",
}
GENERATION = all(
    importlib.util.find_spec(m) is not None
    for m in ("agentflows.planning._mantle", "agentflows.drafting.offline")
)
BAD_CASE = """\
scenario:
  name: Typos everywhere
  simulation_context: A customer.
  goals:
    assertions:
      - skill_completed:
          skill_id: card_replac
      - tool_executed:
          tool_name: place_replacement_ordr
          source: local
"""
ECHO_AGENT = """\
def handle(request):
    if request.get("close"):
        return {}
    if request["turn"]["type"] == "start":
        return {"messages": [{"text": "Hi, how can I help?"}]}
    return {"messages": [{"text": "Let me pass you to a colleague."}],
            "events": [{"event": "skill_activated", "skill_id": "human_handoff"}]}
"""


GIT_IDENTITY = {
    "GIT_AUTHOR_NAME": "casegen tests",
    "GIT_AUTHOR_EMAIL": "tests@casegen.invalid",
    "GIT_COMMITTER_NAME": "casegen tests",
    "GIT_COMMITTER_EMAIL": "tests@casegen.invalid",
}


def _git_repo(folder: Path) -> None:
    """Make the server's folder a repository with one commit (for `pr`)."""
    for args in (["init", "-q"], ["add", "-A"], ["commit", "-q", "-m", "bank"]):
        subprocess.run(
            ["git", *args],
            cwd=folder,
            check=True,
            capture_output=True,
            env={**os.environ, **GIT_IDENTITY},
        )


def _server_command() -> tuple[str, list[str]]:
    script = Path(sys.executable).parent / "casegen"
    if script.is_file():
        return str(script), ["mcp", "--allow-exec"]
    return sys.executable, ["-c", "from agentflows.cli import run; run()", "mcp", "--allow-exec"]


Call = tuple[str, dict[str, Any]]


async def _session(folder: Path, calls: list[Call]) -> dict[str, Any]:
    command, args = _server_command()
    # this checkout's code, whichever casegen the interpreter has installed
    env = {**GIT_IDENTITY, "PYTHONPATH": str(Path(__file__).resolve().parents[1])}
    params = StdioServerParameters(command=command, args=args, cwd=folder, env=env)
    out: dict[str, Any] = {"results": [], "progress": []}
    async with Client(params) as client:
        out["tools"] = (await client.list_tools()).tools
        for number, (name, arguments) in enumerate(calls):
            notes: list[tuple[float, float | None, str | None]] = []

            async def on_progress(
                progress: float, total: float | None, message: str | None, notes: list[Any] = notes
            ) -> None:
                notes.append((progress, total, message))

            result = await client.call_tool(name, arguments, progress_callback=on_progress)
            out["results"].append(result)
            out["progress"].append(notes)
            if number == 0:
                out["pid_alive_after_first"] = True
    return out


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    folder = tmp_path_factory.mktemp("mcp") / "bank"
    shutil.copytree(EXAMPLES / "bank", folder)
    (folder / "eval" / "scenarios" / "bad.yml").write_text(BAD_CASE, "utf-8")
    (folder / "echo_agent.py").write_text(ECHO_AGENT, "utf-8")
    _git_repo(folder)
    calls: dict[str, Call] = {
        "sources": ("list_sources", {}),
        "valid": ("validate_cases", {"paths": ["eval/scenarios/card_replace_stolen.yml"]}),
        "invalid": ("validate_cases", {"paths": "eval/scenarios/bad.yml"}),
        "repair": ("repair_cases", {"paths": ["eval/scenarios/bad.yml"], "dry_run": True}),
        "unknown_target": ("generate_cases", {"targets": "card_replce", "model": "offline"}),
        "after_unknown_target": ("list_sources", {}),
        "missing_path": ("validate_cases", {"paths": ["eval/nowhere.yml"]}),
        "wrong_type": ("validate_cases", {"paths": 42}),
        "unknown_tool": ("delete_everything", {}),
        "after_bad_calls": ("list_sources", {}),
        "run": (
            "run_cases",
            {
                "paths": [
                    "eval/scenarios/card_replace_stolen.yml",
                    "eval/scenarios/check_balance_savings_happy.yml",
                ],
                "target": "python:echo_agent.py:handle",
                "model": "offline",
                "results": "results",
            },
        ),
        "triage": ("triage_results", {"results_dir": "results"}),
        "triage_missing": ("triage_results", {"results_dir": "no-results-here"}),
        "review": (
            "review_cases",
            {"paths": ["eval/scenarios/card_replace_stolen.yml"], "model": "offline"},
        ),
    }
    if GENERATION:
        calls["generate_pr"] = (
            "generate_cases",
            {
                "targets": "card_replace",
                "count": 1,
                "model": "offline",
                "pr": True,
                "branch": "casegen/mcp-test",
            },
        )
        calls["generate"] = (
            "generate_cases",
            {
                "targets": ["card_replace"],
                "count": 2,
                "model": "offline",
                "out": "drafted",
            },
        )
    outcome = anyio.run(_session, folder, list(calls.values()))
    by_name = {
        key: {"result": outcome["results"][n], "progress": outcome["progress"][n]}
        for n, key in enumerate(calls)
    }
    return {"folder": folder, "tools": outcome["tools"], **by_name}


def test_lists_every_tool_with_typed_schemas(served: dict[str, Any]) -> None:
    tools = {tool.name: tool for tool in served["tools"]}
    assert set(tools) == TOOLS
    for tool in tools.values():
        schema = tool.input_schema
        assert schema["type"] == "object"
        assert tool.description
        assert tool.output_schema is not None and tool.output_schema["type"] == "object"
        for name, prop in schema["properties"].items():
            assert prop.get("description"), f"{tool.name}.{name} has no description"
    assert tools["validate_cases"].input_schema["required"] == ["paths"]
    assert tools["run_cases"].input_schema["required"] == ["paths", "target"]
    assert tools["triage_results"].input_schema["required"] == ["results_dir"]
    dialect = tools["generate_cases"].input_schema["properties"]["dialect"]
    assert {"enum": ["mantle", "anychat", "base44"], "type": "string"} in dialect["anyOf"]
    runs = tools["run_cases"].input_schema["properties"]["runs"]["anyOf"][0]
    assert runs == {"type": "integer", "minimum": 1, "maximum": 100}
    rounds = tools["generate_cases"].input_schema["properties"]["repair_rounds"]["anyOf"][0]
    assert rounds == {"type": "integer", "minimum": 0, "maximum": 10}
    assert tools["review_cases"].input_schema["properties"]["revise"]["type"] == "boolean"
    assert set(tools["triage_results"].output_schema["required"]) >= {
        "results_dir",
        "failures",
        "summary",
    }


def test_list_sources_defaults_to_the_servers_project(served: dict[str, Any]) -> None:
    result = served["sources"]["result"]
    assert not result.is_error
    payload = result.structured_content
    assert Path(payload["root"]).name == "bank"
    assert {s["id"] for s in payload["skills"]} == {
        "card_replace",
        "check_balance",
        "dispute_charge",
        "human_handoff",
    }
    assert json.loads(result.content[0].text) == payload


def test_validate_returns_structured_findings(served: dict[str, Any]) -> None:
    good = served["valid"]["result"]
    assert not good.is_error
    assert good.structured_content["summary"] == {"files": 1, "valid": 1, "invalid": 0}

    bad = served["invalid"]["result"]
    assert bad.is_error
    [report] = bad.structured_content["files"]
    found = {(e["code"], e["line"], e["value"]) for e in report["errors"]}
    assert found == {
        ("unknown-skill", 7, "card_replac"),
        ("unknown-tool", 9, "place_replacement_ordr"),
    }
    assert all(e["suggestion"] for e in report["errors"])


def test_repair_dry_run_shows_the_diff_and_writes_nothing(served: dict[str, Any]) -> None:
    result = served["repair"]["result"]
    payload = result.structured_content
    assert payload["dry_run"] is True
    [record] = payload["files"]
    assert {(r["before"], r["after"]) for r in record["repairs"]} == {
        ("card_replac", "card_replace"),
        ("place_replacement_ordr", "place_replacement_order"),
    }
    assert record["written"] is False and "+          skill_id: card_replace" in record["diff"]
    assert record["valid"] and not result.is_error
    assert "card_replac\n" in (served["folder"] / "eval/scenarios/bad.yml").read_text("utf-8")


def test_bad_calls_are_tool_errors_and_the_server_keeps_answering(served: dict[str, Any]) -> None:
    unknown = served["unknown_target"]["result"]
    assert unknown.is_error
    assert unknown.structured_content["error"].startswith("unknown target 'card_replce'")
    assert "card_replace" in unknown.structured_content["hint"]
    assert not served["after_unknown_target"]["result"].is_error

    missing = served["missing_path"]["result"]
    assert missing.is_error
    assert missing.structured_content == {
        "error": "no such file or folder: eval/nowhere.yml",
        "hint": None,
    }
    wrong = served["wrong_type"]["result"]
    assert wrong.is_error and "paths" in wrong.content[0].text
    unknown_tool = served["unknown_tool"]["result"]
    assert unknown_tool.is_error and "delete_everything" in unknown_tool.content[0].text
    assert not served["after_bad_calls"]["result"].is_error


@pytest.mark.skipif(not GENERATION, reason="the generation flow is not complete on this branch")
def test_generate_offline_reports_progress_and_writes_cases(served: dict[str, Any]) -> None:
    result = served["generate"]["result"]
    report = result.structured_content
    assert report["engine"] == "offline" and report["cases"]
    for case in report["cases"]:
        assert (served["folder"] / case["path"]).is_file() or Path(case["path"]).is_file()
    notes = served["generate"]["progress"]
    assert notes, "no progress notifications"
    values = [value for value, _, _ in notes]
    assert values == sorted(values) and len(set(values)) == len(values)
    assert any("planned" in (message or "") for _, _, message in notes)
    assert all(total is None or value <= total for value, total, _ in notes)
    done, total, message = notes[-1]
    assert message.startswith("done: 2 written") and done == total == report["planned"] + 1


@pytest.mark.skipif(not GENERATION, reason="the generation flow is not complete on this branch")
def test_generate_with_pr_commits_to_a_new_branch(served: dict[str, Any]) -> None:
    result = served["generate_pr"]["result"]
    assert not result.is_error, result.content[0].text
    pr = result.structured_content["pr"]
    assert pr["branch"] == "casegen/mcp-test" and pr["commit"]
    assert any(f.endswith(".yml") for f in pr["files"])
    assert pr["validation"]["invalid"] == 0
    branches = subprocess.run(
        ["git", "branch", "--list", "casegen/mcp-test"],
        cwd=served["folder"],
        capture_output=True,
        text=True,
    ).stdout
    assert "casegen/mcp-test" in branches
    notes = served["generate_pr"]["progress"]
    assert notes and notes[-1][2].startswith("done: 1 written")


def test_run_reports_progress_and_triage_reads_its_results(served: dict[str, Any]) -> None:
    run = served["run"]["result"]
    assert run.is_error  # the echo agent fails both cases: a failed run is an error result
    payload = run.structured_content
    assert [r["status"] for r in payload["runs"]] == ["failed", "failed"]
    assert [(p, t) for p, t, _ in served["run"]["progress"]] == [(1.0, 2.0), (2.0, 2.0)]

    triage = served["triage"]["result"]
    assert not triage.is_error
    report = triage.structured_content
    assert report["summary"] == {"Skill": 2, "Instruction": 0, "Scenario": 0, "Tool": 0}
    assert {(f["slug"], f["turn"]) for f in report["failures"]} == {
        ("card_replace_stolen", 1),
        ("check_balance_savings_happy", 1),
    }
    missing = served["triage_missing"]["result"]
    assert missing.is_error and "no such results folder" in missing.structured_content["error"]


def test_review_is_served_or_says_it_is_unavailable(served: dict[str, Any]) -> None:
    result = served["review"]["result"]
    if result.is_error and "not available" in result.content[0].text:
        pytest.skip("review is not in this installation")
    assert "files" in result.structured_content


async def test_a_missing_feature_is_a_clear_tool_error(monkeypatch: pytest.MonkeyPatch) -> None:
    from agentflows.mcp_server import _payloads

    monkeypatch.setitem(sys.modules, "agentflows.review", None)
    with pytest.raises(Unavailable) as caught:
        await _payloads.review([Path("x.yml")], project=None, model=None, dialect=None)
    assert "review_cases is not available in this version" in caught.value.message


def test_progress_values_always_increase() -> None:
    sender = ProgressSender(ctx=None)
    for done in (0, 0, 0, 1, 1, 3, 2, 3):
        sender.post(done, 3, "x")
    sent = []
    while True:
        try:
            sent.append(sender._receive.receive_nowait()[0])
        except anyio.WouldBlock:
            break
    assert sent == sorted(sent) and len(set(sent)) == len(sent)
    assert [int(v) for v in sent] == [0, 0, 0, 1, 1, 3, 3, 3]
