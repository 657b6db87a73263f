"""Commands that use no model or graph start without LangGraph, LangChain, GitPython or MCP.

Checked by import inspection in a fresh interpreter (not by timing): the heavy packages are
imported only by the commands that need them (`generate`, `run`, `review`, `mcp`, `--pr`).
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
HEAVY = ("langgraph", "langsmith", "langchain", "langchain_core", "langchain_openai", "git", "mcp")

PROBE = """
import contextlib, io, json, sys
from agentflows.cli import main
with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
    code = main(sys.argv[1:])
roots = sorted({name.split(".")[0] for name in sys.modules})
print(json.dumps({"code": code, "roots": roots}))
"""


def _loaded(*argv: str, cwd: Path = REPO) -> tuple[int, set[str]]:
    done = subprocess.run(
        [sys.executable, "-c", PROBE, *argv],
        capture_output=True,
        text=True,
        cwd=cwd,
        check=True,
    )
    payload = json.loads(done.stdout.strip().splitlines()[-1])
    return payload["code"], set(payload["roots"])


@pytest.mark.parametrize(
    "argv",
    [
        ["--help"],
        ["validate", "examples/bank/eval", "--project", "examples/bank"],
        ["sources", "--project", "examples/bank"],
    ],
    ids=["help", "validate", "sources"],
)
def test_light_commands_do_not_import_heavy_packages(argv: list[str]) -> None:
    code, roots = _loaded(*argv)
    assert code in (0, 1)
    assert not roots & set(HEAVY), sorted(roots & set(HEAVY))


def test_probe_sees_heavy_packages_when_a_command_needs_them(tmp_path: Path) -> None:
    """The probe itself can fail: `generate` (a LangGraph flow) does load LangGraph."""
    _, roots = _loaded(
        "generate",
        "card_replace",
        "--project",
        str(REPO / "examples" / "bank"),
        "--model",
        "offline",
        "--out",
        str(tmp_path / "out"),
        cwd=tmp_path,
    )
    assert "langgraph" in roots


#: Modules only some commands use: the runner and agents (`run`, `mutate`), the scoring
#: suite (`score`), the repairer (`repair`) and the dialects (`validate`, `repair`, ...).
COMMAND_ONLY = ("evalcore.runner", "evalcore.agents", "agentflows.mutate", "agentflows.scoring")

MODULES_PROBE = PROBE.replace(
    'roots = sorted({name.split(".")[0] for name in sys.modules})', "roots = sorted(sys.modules)"
)


def test_help_loads_no_command_s_own_machinery() -> None:
    done = subprocess.run(
        [sys.executable, "-c", MODULES_PROBE, "--help"],
        capture_output=True,
        text=True,
        cwd=REPO,
        check=True,
    )
    modules = set(json.loads(done.stdout.strip().splitlines()[-1])["roots"])
    loaded = sorted(m for m in modules if m.startswith(COMMAND_ONLY) or m == "evalcore.dialects")
    assert loaded == [], loaded
