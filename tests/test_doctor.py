"""`casegen doctor` against a local OpenAI-compatible stub: each check, `--json`, exit codes."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest
from conftest import EXAMPLES
from stub_openai import RecordedRequest, Reply, stub_fixture
from test_generate_endpoint import MODEL_ENV, closed_port_url

BANK = EXAMPLES / "bank"
GOOD_WORDS = {
    "name": "Replacing a lost debit card",
    "simulation_context": "",
    "criteria": ["The agent never reads out the full card number"],
}
JUNK_WORDS = {"name": "10, ", "simulation_context": "10. 10, ", "criteria": []}

openai_stub = stub_fixture(require_key="right-key", models=["m", "other"])


def answer(words: dict[str, Any], *, json_schema: bool = True):
    def handle(request: RecordedRequest) -> Any:
        if request.mode == "json_schema" and not json_schema:
            return Reply(status=500, error="response_format json_schema is not supported")
        if request.schema_name == "probe" or "answer" in request.text:
            return {"answer": "ok"}
        return words

    return handle


@pytest.fixture
def env(monkeypatch: pytest.MonkeyPatch, tmp_path: Path, openai_stub) -> Any:
    for name in MODEL_ENV:
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("OPENAI_BASE_URL", openai_stub.base_url)
    monkeypatch.setenv("OPENAI_API_KEY", "right-key")
    monkeypatch.chdir(tmp_path)
    return openai_stub


def doctor(run_cli, *args: str) -> tuple[int, dict[str, Any]]:
    code, out, _ = run_cli("doctor", "--project", BANK, "--model", "m", *args, "--json")
    return code, json.loads(out)


def checks(payload: dict[str, Any]) -> dict[str, tuple[str, str]]:
    return {c["name"]: (c["status"], c["detail"]) for c in payload["checks"]}


def test_a_working_endpoint_passes_every_check(env, run_cli) -> None:
    env.handler = answer(GOOD_WORDS)
    env.props = {"default_generation_settings": {"n_ctx": 8192}}
    code, payload = doctor(run_cli)
    found = checks(payload)
    assert code == 0, payload
    assert found["endpoint"][0] == "ok" and found["model"][0] == "ok"
    assert {found[f"structured:{m}"][0] for m in ("json_schema", "tools", "json_object")} == {"ok"}
    assert found["structured"][0] == "ok"
    assert found["context"] == ("ok", "8192 tokens (/props n_ctx)")
    assert found["smoke-draft"][0] == "ok" and "valid after 1 call(s)" in found["smoke-draft"][1]
    assert payload["uses"]["drafting"] == "llm:m" and payload["uses"]["context"] == 8192
    modes = [r.mode for r in env.requests]
    assert modes[:3] == ["json_schema", "tools", "json"]
    assert env.requests[2].body["response_format"] == {"type": "json_object"}


def test_auto_takes_the_strongest_method_the_server_answers(env, run_cli) -> None:
    env.handler = answer(GOOD_WORDS, json_schema=False)
    code, payload = doctor(run_cli, "--no-smoke")
    found = checks(payload)
    assert code == 0
    assert found["structured:json_schema"][0] == "warn"
    assert found["structured"] == ("ok", "structured = auto: casegen will use tools")
    assert payload["uses"]["structured"] == "auto: tools"


def test_a_fixed_method_the_server_refuses_names_the_setting_that_works(
    env, run_cli, tmp_path: Path
) -> None:
    project = tmp_path / "bank"
    shutil.copytree(BANK, project)
    (project / "casegen.toml").write_text('structured = "json_schema"\n', encoding="utf-8")
    env.handler = answer(GOOD_WORDS, json_schema=False)
    code, out, _ = run_cli("doctor", "--project", project, "--model", "m", "--no-smoke", "--json")
    payload = json.loads(out)
    found = checks(payload)
    assert code == 1
    assert (
        found["structured:json_schema"][0] == "warn"
        and "HTTP 500" in found["structured:json_schema"][1]
    )
    assert found["structured:tools"][0] == "ok"
    assert found["structured"][0] == "fail"
    assert 'structured = "tools"' in found["structured"][1]
    assert found["smoke-draft"][0] == "skip"


def test_junk_words_are_no_smoke_pass(env, run_cli) -> None:
    env.handler = answer(JUNK_WORDS)
    code, payload = doctor(run_cli)
    status, detail = checks(payload)["smoke-draft"]
    assert code == 0 and status == "warn"
    assert "none of the model's words were usable" in detail


def test_an_unlisted_model_is_a_warning(env, run_cli) -> None:
    env.handler = answer(GOOD_WORDS)
    code, out, _ = run_cli(
        "doctor", "--project", BANK, "--model", "missing", "--no-smoke", "--json"
    )
    status, detail = checks(json.loads(out))["model"]
    assert code == 0 and status == "warn" and "listed: m, other" in detail


def test_a_refused_key_exits_3(env, run_cli, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "wrong")
    code, payload = doctor(run_cli)
    assert code == 3 and payload["exit_code"] == 3
    assert checks(payload)["endpoint"][0] == "fail"
    assert "refused the API key" in checks(payload)["endpoint"][1]
    assert env.requests == []


def test_an_unreachable_endpoint_exits_3(env, run_cli, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OPENAI_BASE_URL", closed_port_url())
    code, payload = doctor(run_cli)
    assert code == 3 and "unreachable" in checks(payload)["endpoint"][1]


def test_without_a_model_doctor_says_offline(env, run_cli, monkeypatch: pytest.MonkeyPatch) -> None:
    code, out, _ = run_cli("doctor", "--project", BANK, "--model", "offline")
    assert code == 0
    assert "drafting: offline" in out and "no model configured" in out
    assert env.requests == []


def test_no_key_for_the_openai_api_is_said_without_a_request(
    run_cli, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    for name in MODEL_ENV:
        monkeypatch.delenv(name, raising=False)
    monkeypatch.chdir(tmp_path)
    code, out, _ = run_cli("doctor", "--model", "gpt-test", "--json")
    payload = json.loads(out)
    assert code == 3 and "no API key" in checks(payload)["endpoint"][1]
