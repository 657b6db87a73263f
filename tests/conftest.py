"""Shared test fixtures: repository paths and a CLI runner."""

from __future__ import annotations

import json
import os
import shutil
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

from agentflows.cli import main

#: Property tests judge the code, not the machine: the suite runs on two shared cores, where a
#: draw can wait a second for a core, so Hypothesis's timing checks (`too_slow`, the per-example
#: deadline) are off for every test; the examples and their shrinking are unchanged.
settings.register_profile(
    "shared-cores", suppress_health_check=[HealthCheck.too_slow], deadline=None
)
settings.load_profile("shared-cores")

REPO = Path(__file__).resolve().parents[1]
EXAMPLES = REPO / "examples"


def pytest_configure(config: pytest.Config) -> None:
    """The compiled schema checks go to a folder of this session (and the commands the tests
    start inherit it), not the user's cache."""
    if "CASEGEN_CACHE_DIR" not in os.environ:
        os.environ["CASEGEN_CACHE_DIR"] = tempfile.mkdtemp(prefix="casegen-test-cache-")
        config._casegen_cache_dir = os.environ["CASEGEN_CACHE_DIR"]  # type: ignore[attr-defined]


def pytest_unconfigure(config: pytest.Config) -> None:
    made = getattr(config, "_casegen_cache_dir", None)
    if made:
        shutil.rmtree(made, ignore_errors=True)


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
