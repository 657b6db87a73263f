"""`casegen mcp`'s quick start: the second start answers a client's first questions from
the answers the SDK gave the first time, before the SDK is even imported, and everything
after them still reaches the SDK's session (the older `initialize` handshake included)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import IO, Any

import anyio
from mcp import Client
from mcp.client.stdio import StdioServerParameters

REPO = Path(__file__).resolve().parents[1]
BANK = REPO / "examples" / "bank"
CLI = "import sys; from agentflows.cli import main; sys.exit(main(sys.argv[1:]))"


def _env(cache: Path) -> dict[str, str]:
    return {
        **{k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"},
        "PYTHONPATH": str(REPO),
        "CASEGEN_CACHE_DIR": str(cache),
    }


def _answer(stdout: IO[bytes], ident: int) -> dict[str, Any]:
    """The next message with `ident` (notifications and logs in between are skipped)."""
    while True:
        line = stdout.readline()
        assert line, "the server closed its output"
        message = json.loads(line)
        if message.get("id") == ident and "method" not in message:
            return message


def _handshake(cache: Path) -> tuple[list[dict[str, Any]], bytes]:
    """The 2025-11-25 handshake, `tools/list` and one tool call; the answers, and what
    the server wrote after them."""
    process = subprocess.Popen(
        [sys.executable, "-c", CLI, "mcp", "--project", str(BANK)],
        cwd=REPO,
        env=_env(cache),
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    assert process.stdin is not None and process.stdout is not None
    client = {"name": "handshake-test", "version": "1"}
    steps: list[dict[str, Any]] = [
        {
            "id": 1,
            "method": "initialize",
            "params": {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": client},
        },
        {"method": "notifications/initialized"},
        {"id": 2, "method": "tools/list"},
        {"id": 3, "method": "tools/call", "params": {"name": "list_sources", "arguments": {}}},
    ]
    answers = []
    for step in steps:
        process.stdin.write(json.dumps({"jsonrpc": "2.0", **step}).encode() + b"\n")
        process.stdin.flush()
        if "id" in step:
            answers.append(_answer(process.stdout, step["id"]))
    rest, errors = process.communicate(timeout=30)
    assert process.returncode == 0, errors.decode()
    return answers, rest


def test_the_second_handshake_is_answered_from_the_first_and_the_session_goes_on(
    tmp_path: Path,
) -> None:
    first, _ = _handshake(tmp_path)
    assert [p.name for p in (tmp_path / "mcp").iterdir()], "the answers were kept"
    second, rest = _handshake(tmp_path)
    assert second[0] == first[0] and second[1] == first[1]
    assert {t["name"] for t in second[1]["result"]["tools"]} >= {"list_sources", "run_cases"}
    # The tool call reached an initialized SDK session (it refuses calls before the
    # handshake), and its answer to the handshake it was replayed never reached the client.
    for call in (first[2], second[2]):
        assert "error" not in call and not call["result"].get("isError"), call
        assert "check_balance" in json.dumps(call["result"])
    assert b'"id":1' not in rest.replace(b" ", b"")


#: The server with every import of the MCP SDK held back by `GATE_S` seconds first.
GATE_S = 4.0
GATED = f"""
import builtins, sys, time
_import = builtins.__import__
def _gated(name, *args, **kwargs):
    if name.split(".")[0] == "mcp" and "mcp" not in sys.modules:
        time.sleep({GATE_S})
    return _import(name, *args, **kwargs)
builtins.__import__ = _gated
{CLI}
"""


async def _list_tools_s(cache: Path) -> float:
    params = StdioServerParameters(
        command=sys.executable,
        args=["-c", GATED, "mcp", "--project", str(BANK)],
        cwd=str(REPO),
        env=_env(cache),
    )
    start = time.monotonic()
    async with Client(params) as client:
        assert {t.name for t in (await client.list_tools()).tools} >= {"list_sources"}
        answered = time.monotonic() - start
        called = await client.call_tool("list_sources", {})  # the SDK's session, after
        assert not called.is_error and "check_balance" in str(called.structured_content)
    return answered


def test_list_tools_is_answered_before_the_sdk_is_imported(tmp_path: Path) -> None:
    """The second start answers `server/discover` + `tools/list` while the SDK is still
    loading: with its import held back by 4 s, the answers come sooner than that."""
    anyio.run(_list_tools_s, tmp_path)  # writes the answers
    assert anyio.run(_list_tools_s, tmp_path) < GATE_S
