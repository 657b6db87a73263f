"""`run`, `review` and `revise` with a model: an endpoint that is down or refuses the key
stops the command before its first call, with one error, the hint and exit 3."""

from __future__ import annotations

import json
import shutil
import time
from pathlib import Path

import pytest
from conftest import EXAMPLES, REPO
from stub_openai import stub_fixture
from test_generate_endpoint import MODEL_ENV, closed_port_url

CASE = REPO / "generated_cases" / "mantle" / "card_replace" / "card_replace_damaged_happy_path.yml"

openai_stub = stub_fixture(require_key="right-key")


@pytest.fixture
def case(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    for name in MODEL_ENV:
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("NO_PROXY", "127.0.0.1,localhost")
    monkeypatch.chdir(tmp_path)
    copy = tmp_path / CASE.name
    shutil.copy(CASE, copy)
    return copy


COMMANDS = {
    "run": lambda case: ("run", case, "--target", "demo:bank", "--project", EXAMPLES / "bank"),
    "review": lambda case: ("review", case, "--project", EXAMPLES / "bank"),
    "revise": lambda case: ("revise", case, "--comment", "shorter", "--yes"),
}


@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_unreachable_endpoint_stops_the_command(
    command: str, case: Path, run_cli, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("OPENAI_BASE_URL", closed_port_url())
    monkeypatch.setenv("OPENAI_API_KEY", "k")
    before = case.read_text(encoding="utf-8")
    started = time.monotonic()
    code, out, _ = run_cli(*COMMANDS[command](case), "--model", "m", "--json")
    payload = json.loads(out)
    assert code == 3, payload
    assert "unreachable" in payload["error"] and "--model offline" in payload["hint"]
    assert time.monotonic() - started < 10
    assert case.read_text(encoding="utf-8") == before


@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_refused_key_stops_the_command(
    command: str, case: Path, run_cli, openai_stub, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("OPENAI_BASE_URL", openai_stub.base_url)
    monkeypatch.setenv("OPENAI_API_KEY", "wrong-key")
    code, out, _ = run_cli(*COMMANDS[command](case), "--model", "m", "--json")
    payload = json.loads(out)
    assert code == 3, payload
    assert "refused the API key" in payload["error"]
    assert openai_stub.requests == []


def test_a_working_endpoint_passes_the_preflight(
    case: Path, run_cli, openai_stub, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("OPENAI_BASE_URL", openai_stub.base_url)
    monkeypatch.setenv("OPENAI_API_KEY", "right-key")
    openai_stub.handler = lambda request: {"comments": []}
    code, out, _ = run_cli(*COMMANDS["review"](case), "--model", "m", "--json")
    assert code in (0, 1), out
    assert openai_stub.requests, "the critique never reached the model"
