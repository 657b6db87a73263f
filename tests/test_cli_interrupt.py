"""Ctrl-C and SIGTERM during `casegen generate`: the run id was shown at the start, the
command stops at once, and `--json` still prints one object that says how to resume.

Each run is its own process: the signal reaches only it, with the signal handlers a user's
shell gives it, and a run that failed to stop is killed after a deadline and reported with
what it printed (the test process never waits on a stuck run, nor gets a stray signal)."""

from __future__ import annotations

import json
import os
import select
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from conftest import EXAMPLES, REPO
from stub_openai import slow, stub_fixture

from agentflows.cli._generate_run import _TermAsInterrupt

openai_stub = stub_fixture(handler=lambda request: slow(120, {}))
#: A shell that starts the tests in the background (`make test &`, nohup) hands them SIGINT
#: ignored, and a child inherits an ignored signal: the run starts with the dispositions an
#: interactive shell gives a command instead.
CASEGEN = [
    sys.executable,
    "-c",
    "import signal; signal.signal(signal.SIGINT, signal.default_int_handler); "
    "signal.signal(signal.SIGTERM, signal.SIG_DFL); from agentflows.cli import run; run()",
]
#: Model settings a user's environment may carry; the run must see only the stub's.
MODEL_ENV = ("CASEGEN_MODEL", "OPENAI_MODEL", "CASEGEN_SETTINGS")


def _generate_then_signal(stub, tmp_path: Path, signum: int) -> tuple[int, float, str, str]:
    """Start `generate --json` against `stub`, send `signum` once the model is asked and
    the run id shown; the exit code, seconds from the signal to the exit, stdout and stderr."""
    env = {k: v for k, v in os.environ.items() if k not in MODEL_ENV}
    env.update(
        OPENAI_BASE_URL=stub.base_url,
        OPENAI_API_KEY="k",
        NO_PROXY="127.0.0.1,localhost",
        PYTHONPATH=os.pathsep.join([str(REPO), env.get("PYTHONPATH", "")]),
    )
    proc = subprocess.Popen(
        [*CASEGEN, "generate", "card_replace", "--project", str(EXAMPLES / "bank"),
         "--model", "stub-model", "--out", str(tmp_path / "out"), "--json"],
        cwd=tmp_path, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    try:
        deadline = time.monotonic() + 90
        while not stub.requests and proc.poll() is None and time.monotonic() < deadline:
            time.sleep(0.02)
        if not stub.requests:
            proc.kill()
            out, err = proc.communicate()
            pytest.fail(f"the model was never called (exit {proc.returncode}): {err[-2000:]}")
        # A run's first drafts may be asked before its id is shown (they go out while the
        # flow loads, `agentflows.generate._early`); the run is on once the id is shown.
        assert proc.stderr is not None
        shown = select.select([proc.stderr], [], [], max(0.0, deadline - time.monotonic()))[0]
        first = proc.stderr.readline() if shown else ""
        sent = time.monotonic()
        proc.send_signal(signum)
        try:
            out, err = proc.communicate(timeout=30)
        except subprocess.TimeoutExpired:
            proc.kill()
            out, err = proc.communicate()
            pytest.fail(f"still running 30 s after the signal: {err[-2000:]}")
        return proc.returncode, time.monotonic() - sent, out, first + err
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()


@pytest.mark.parametrize(
    ("signum", "code", "error"),
    [(signal.SIGINT, 130, "interrupted"), (signal.SIGTERM, 143, "terminated")],
)
def test_a_signal_stops_promptly_with_the_run_id(
    tmp_path: Path, openai_stub, signum: int, code: int, error: str
) -> None:
    exit_code, elapsed, out, err = _generate_then_signal(openai_stub, tmp_path, signum)
    assert exit_code == code, err
    assert elapsed < 5, f"took {elapsed:.1f}s to stop"
    first = err.splitlines()[0]  # printed at the start, although stderr is not a terminal
    assert first.startswith("run gen-"), err
    run_id = first.split()[1]
    payload = json.loads(out)
    assert payload["run_id"] == run_id and payload["exit_code"] == code
    assert payload["error"] == error
    assert f"casegen generate --resume {run_id}" in payload["hint"]
    # LangGraph's steps cancelled before they started are not the user's concern
    assert "never awaited" not in err, err


def test_the_sigterm_handler_is_put_back() -> None:
    before = signal.getsignal(signal.SIGTERM)
    with _TermAsInterrupt() as terminated:
        assert signal.getsignal(signal.SIGTERM) == terminated._handle
    assert signal.getsignal(signal.SIGTERM) is before
