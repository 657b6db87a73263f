"""Every CLI operation a coding agent needs is an MCP tool, run through the SDK's stdio
client the way an agent calls it: explain, score, mutate, status, report and doctor return
what `casegen <command> --json` prints, and the same exit decides `isError`."""

from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path
from typing import Any

import anyio
import pytest
from conftest import EXAMPLES, REPO
from mcp import Client
from mcp.client.stdio import StdioServerParameters

from agentflows.cli import COMMANDS

#: CLI command -> the tools that do what it does.
TOOL_OF = {
    "sources": {"list_sources", "explain_skill"},
    "validate": {"validate_cases"},
    "repair": {"repair_cases"},
    "generate": {"generate_cases"},
    "run": {"run_cases"},
    "review": {"review_cases"},
    "triage": {"triage_results"},
    "score": {"score_suite"},
    "mutate": {"mutate_suite"},
    "status": {"case_status"},
    "report": {"report_results"},
    "doctor": {"doctor"},
}
#: Commands with no tool, and why: a new command must be put in one of the two.
NO_TOOL = {
    "mcp": "the server itself",
    "clean": "housekeeping of this machine's checkpoint store and caches",
    "revise": "writes a model's rewrite only on a person's confirmation",
    "assert": "a check of a tracker file exported from Rasa; validate_cases covers the case",
}


def test_every_command_is_a_tool_or_says_why_not() -> None:
    assert set(TOOL_OF) | set(NO_TOOL) == set(COMMANDS)
    assert not set(TOOL_OF) & set(NO_TOOL)


def server_params(folder: Path) -> StdioServerParameters:
    """`casegen mcp` from this checkout (not whichever casegen is installed)."""
    return StdioServerParameters(
        command=sys.executable,
        args=["-c", "from agentflows.cli import run; run()", "mcp"],
        cwd=folder,
        env={"PYTHONPATH": str(REPO), "NO_PROXY": "127.0.0.1,localhost"},
    )


async def _session(folder: Path, calls: list[tuple[str, dict[str, Any]]]) -> dict[str, Any]:
    async with Client(server_params(folder)) as client:
        tools = (await client.list_tools()).tools
        results = [await client.call_tool(name, args) for name, args in calls]
    return {"tools": tools, "results": results}


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    folder = tmp_path_factory.mktemp("mcp") / "bank"
    shutil.copytree(EXAMPLES / "bank", folder)
    shutil.copytree(REPO / "tests" / "data" / "results", folder / "results")
    for name in ("build.py", "cases"):
        target = folder / "results" / name
        shutil.rmtree(target) if target.is_dir() else target.unlink()
    newest = folder / "results" / "2026-03-02_14-05-11"
    shutil.copytree(newest, folder / "results" / "2026-03-01_09-00-00")  # an older batch
    calls = {
        "explain": ("explain_skill", {"skill": "card_replace"}),
        "explain_unknown": ("explain_skill", {"skill": "card_replce"}),
        "score": ("score_suite", {"paths": "eval/scenarios"}),
        "mutate": ("mutate_suite", {"paths": ["eval/scenarios"], "min_score": 0.99}),
        "generate": ("generate_cases", {"targets": "check_balance", "model": "offline"}),
        "status": ("case_status", {}),
        "report": ("report_results", {"results": "results", "html": "report.html"}),
        "report_outside": ("report_results", {"results": "results", "html": "/tmp/x.html"}),
        "doctor": ("doctor", {"smoke": False}),
    }
    outcome = anyio.run(_session, folder, list(calls.values()))
    results = dict(zip(calls, outcome["results"], strict=True))
    return {"folder": folder, "tools": outcome["tools"], **results}


def test_the_server_lists_a_tool_for_every_operation(served: dict[str, Any]) -> None:
    listed = {tool.name for tool in served["tools"]}
    assert set().union(*TOOL_OF.values()) == listed
    for tool in served["tools"]:
        assert tool.description and tool.output_schema is not None, tool.name


def test_explain_skill_is_sources_explain(served: dict[str, Any], run_cli_json) -> None:
    result = served["explain"]
    assert not result.is_error, result.content
    _, cli = run_cli_json("sources", "--project", EXAMPLES / "bank", "--explain", "card_replace")
    data = result.structured_content
    assert data["skill"] == "card_replace" and data["tools"] == cli["tools"]
    unknown = served["explain_unknown"]
    assert unknown.is_error and "card_replace" in str(unknown.structured_content)


def test_score_suite_is_score(served: dict[str, Any], run_cli_json) -> None:
    result = served["score"]
    _, cli = run_cli_json("score", EXAMPLES / "bank" / "eval" / "scenarios")
    data = result.structured_content
    assert set(data["figures"]) == set(cli["figures"]) and data["misses"] == cli["misses"]
    assert result.is_error == bool(cli["misses"])


def test_mutate_suite_says_why_it_is_an_error(served: dict[str, Any]) -> None:
    result = served["mutate"]
    data = result.structured_content
    assert result.is_error and 0 < data["score"] < 0.99
    assert "below --min-score 0.99" in data["below_min_score"]
    assert data["survivors"] and "--direction" in data["survivors"][0]["suggestion"]
    assert data["project"] == "."  # found from the paths, as the CLI finds it


def test_case_status_after_generate(served: dict[str, Any]) -> None:
    assert not served["generate"].is_error, served["generate"].content
    result = served["status"]
    assert not result.is_error, result.content
    data = result.structured_content
    assert data["summary"]["fresh"] == len(data["cases"]) > 0


def test_report_results_names_the_batch_it_picked(served: dict[str, Any]) -> None:
    result = served["report"]
    data = result.structured_content
    assert not result.is_error, result.content
    assert data["results_dir"].endswith("2026-03-02_14-05-11") and data["cases"]
    assert "holds 2 batches; reporting the newest, 2026-03-02_14-05-11" in data["note"]
    assert (served["folder"] / "report.html").is_file()
    outside = served["report_outside"]
    assert outside.is_error and not os.path.exists("/tmp/x.html")


def test_doctor_without_a_model_says_offline(served: dict[str, Any]) -> None:
    result = served["doctor"]
    assert not result.is_error, result.content
    data = result.structured_content
    assert data["checks"] and "uses" in data


def test_the_server_shares_the_command_layer_not_the_cli() -> None:
    """The tools call `agentflows.commands`, as the CLI does; none reaches into the CLI."""
    server = REPO / "agentflows" / "mcp_server"
    for module in server.glob("*.py"):
        text = module.read_text(encoding="utf-8")
        assert "..cli" not in text and "agentflows.cli" not in text, module.name
