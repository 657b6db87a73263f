"""Shared test fixtures: repository paths and a CLI runner."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from agentflows.cli import main

REPO = Path(__file__).resolve().parents[1]
EXAMPLES = REPO / "examples"


@pytest.fixture
def repo() -> Path:
    return REPO


@pytest.fixture
def run_cli(capsys: pytest.CaptureFixture[str]):
    """Run `casegen ARGS...` in-process; returns (exit_code, stdout, stderr)."""

    def _run(*args: str) -> tuple[int, str, str]:
        code = main([str(a) for a in args])
        out, err = capsys.readouterr()
        return code, out, err

    return _run


@pytest.fixture
def run_cli_json(run_cli):
    """Run with `--json` and parse stdout (which must be exactly one JSON document)."""

    def _run(*args: str) -> tuple[int, dict]:
        code, out, _ = run_cli(*args, "--json")
        return code, json.loads(out)

    return _run
