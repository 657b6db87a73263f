"""Ctrl-C during `casegen generate`: the run id was shown at the start, the command stops
at once, and `--json` still prints one object that says how to resume."""

from __future__ import annotations

import json
import os
import signal
import threading
import time
from pathlib import Path

import pytest
from conftest import EXAMPLES
from stub_openai import slow, stub_fixture

openai_stub = stub_fixture(handler=lambda request: slow(120, {}))


def _interrupt_once_called(stub, sent: list[float]) -> None:
    deadline = time.monotonic() + 60
    while not stub.requests and time.monotonic() < deadline:
        time.sleep(0.02)
    sent.append(time.monotonic())
    os.kill(os.getpid(), signal.SIGINT)


def test_sigint_stops_promptly_with_the_run_id(
    tmp_path: Path, run_cli, openai_stub, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("OPENAI_BASE_URL", openai_stub.base_url)
    monkeypatch.setenv("OPENAI_API_KEY", "k")
    monkeypatch.chdir(tmp_path)
    sent: list[float] = []
    threading.Thread(target=_interrupt_once_called, args=(openai_stub, sent)).start()
    code, out, err = run_cli(
        *("generate", "card_replace", "--project", EXAMPLES / "bank", "--model", "stub-model"),
        *("--out", tmp_path / "out", "--json"),
    )
    elapsed = time.monotonic() - sent[0]
    assert openai_stub.requests, "the model was never called"
    assert code == 130, err
    assert elapsed < 5, f"took {elapsed:.1f}s to stop"
    first = err.splitlines()[0]  # printed at the start, although stderr is not a terminal
    assert first.startswith("run gen-"), err
    run_id = first.split()[1]
    payload = json.loads(out)
    assert payload["run_id"] == run_id and payload["exit_code"] == 130
    assert f"casegen generate --resume {run_id}" in payload["hint"]
