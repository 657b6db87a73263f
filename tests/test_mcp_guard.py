"""The MCP server treats its arguments as untrusted: paths stay in its root, local code
runs only with --allow-exec, and arguments no filesystem accepts are clear tool errors."""

from __future__ import annotations

import errno
import shutil
from pathlib import Path
from typing import Any

import anyio
import pytest
from conftest import EXAMPLES
from mcp import Client

from agentflows.mcp_server import build_server

AGENT = """\
import pathlib
pathlib.Path(__file__).with_name("ran.txt").write_text("imported")
def handle(request):
    return {}
"""


async def _calls(server: Any, calls: list[tuple[str, dict[str, Any]]]) -> list[Any]:
    async with Client(server) as client:
        tools = {t.name: t for t in (await client.list_tools()).tools}
        results = [await client.call_tool(name, args) for name, args in calls]
    return [tools, *results]


@pytest.fixture
def root(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "root"
    shutil.copytree(EXAMPLES / "bank", folder / "bank")
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "agent.py").write_text(AGENT, "utf-8")
    monkeypatch.chdir(folder)
    return folder


CASE = "bank/eval/scenarios/card_replace_stolen.yml"


def _error(result: Any) -> str:
    assert result.is_error, result.content[0].text
    text = result.content[0].text
    assert "internal error" not in text, text
    return text


def test_hostile_arguments_are_clear_tool_errors(root: Path) -> None:
    outside_agent = root.parent / "outside" / "agent.py"
    calls = [
        ("validate_cases", {"paths": ["a" * 300 + ".yml"]}),
        ("validate_cases", {"paths": ["bad\0name.yml"]}),
        ("validate_cases", {"paths": ["/etc/passwd"]}),
        ("validate_cases", {"paths": ["../outside/agent.py"]}),
        ("triage_results", {"results_dir": "/"}),
        ("list_sources", {"project": "/"}),
        (
            "run_cases",
            {"paths": [CASE], "target": f"python:{outside_agent}:handle", "model": "offline"},
        ),
        ("run_cases", {"paths": [CASE], "target": "command:echo {prompt}", "model": "offline"}),
        (
            "run_cases",
            {"paths": [CASE], "target": "demo:bank", "model": "offline", "results": "/tmp/x"},
        ),
        ("generate_cases", {"targets": "card_replace", "model": "offline", "out": "../escape"}),
        ("list_sources", {"project": "bank"}),
    ]
    tools, *results = anyio.run(_calls, build_server(root=root), calls)
    too_long, nul, etc, up, triage, project, python, command, results_out, out, fine = results
    assert "too long" in _error(too_long)
    assert "NUL byte" in _error(nul)
    for result in (etc, up, triage, project, results_out, out):
        assert "outside the server's folder" in _error(result)
    for result in (python, command):
        assert "--allow-exec" in _error(result)
    assert not (root.parent / "outside" / "ran.txt").exists(), "the outside agent was imported"
    assert not (root.parent / "escape").exists()
    assert not fine.is_error  # the server kept serving
    for name in ("generate_cases", "repair_cases", "run_cases"):
        assert tools[name].annotations.destructive_hint is True, name
    for name in ("validate_cases", "list_sources", "triage_results", "review_cases"):
        assert tools[name].annotations.read_only_hint is True, name


def test_deep_input_is_a_clear_tool_error(root: Path) -> None:
    deep = root / "bank" / "eval" / "scenarios" / "deep.json"
    deep.write_text("[" * 100_000 + "]" * 100_000, "utf-8")
    _, result, fine = anyio.run(
        _calls,
        build_server(root=root),
        [
            ("validate_cases", {"paths": [str(deep.relative_to(root))]}),
            ("list_sources", {"project": "bank"}),
        ],
    )
    assert "internal error" not in result.content[0].text  # a finding, or a clear error
    assert not fine.is_error


@pytest.mark.parametrize(
    ("failure", "message"),
    [
        (RecursionError("maximum recursion depth exceeded"), "nested too deeply"),
        (ValueError("embedded null byte"), "NUL byte"),
        (OSError(errno.ENAMETOOLONG, "File name too long", "x" * 5000), "File name too long"),
    ],
)
def test_failures_caused_by_arguments_are_not_internal_errors(
    root: Path, monkeypatch: pytest.MonkeyPatch, failure: Exception, message: str
) -> None:
    from agentflows.mcp_server import _payloads

    def fail(*args: Any) -> Any:
        raise failure

    monkeypatch.setattr(_payloads, "validate", fail)
    _, result = anyio.run(_calls, build_server(root=root), [("validate_cases", {"paths": [CASE]})])
    assert message in _error(result)
    assert len(result.content[0].text) < 300


def test_exec_targets_run_with_allow_exec(root: Path) -> None:
    agent = root / "agent.py"
    agent.write_text(AGENT, "utf-8")
    _, result = anyio.run(
        _calls,
        build_server(root=root, allow_exec=True),
        [
            (
                "run_cases",
                {
                    "paths": [CASE],
                    "target": "python:agent.py:handle",
                    "model": "offline",
                    "results": "results",
                },
            )
        ],
    )
    assert (root / "ran.txt").exists()
    assert "runs" in result.structured_content, result.content[0].text
