"""Secrets never reach what casegen writes or prints: run files, summaries, JUnit, `--json`,
generate reports, the checkpoint store, MCP replies."""

from __future__ import annotations

import json
import os
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from conftest import EXAMPLES
from hypothesis import given, settings
from hypothesis import strategies as st
from stub_openai import Reply, StubOpenAI, stub_fixture

from agentflows.mcp_server._results import error_result, payload_result
from evalcore.agents import AgentReply, UserTurn
from evalcore.errors import UserError
from evalcore.redact import MASK, redact, redact_data, register_secret, scrubbed_env
from evalcore.runner import target_override
from evalcore.runner.testing import FunctionTarget

openai_stub = stub_fixture()

KEY = "sk-test-0123456789abcdefABCDEF"
URL_PASSWORD = "hunter2-url-pass"


@pytest.mark.parametrize(
    ("text", "leaked"),
    [
        (f"Incorrect API key provided: {KEY}.", KEY),
        ("Authorization: Bearer abcdefghijklmnop.qrstuv", "abcdefghijklmnop"),
        ("token sk-proj-AbCdEfGhIjKlMnOpQrStUv012345 expired", "AbCdEfGhIjKlMnOpQrStUv"),
        ("clone ghp_0123456789abcdefghij0123456789 failed", "ghp_0123456789"),
        ("POST http://alice:s3cr3t-pw@llm.local:8000/v1 failed", "s3cr3t-pw"),
        ("see https://bob@host/x", "bob@"),
    ],
)
def test_redact_masks_secrets(text: str, leaked: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", KEY)
    out = redact(text)
    assert leaked not in out and MASK in out


def test_env_values_by_name_and_registered_keys(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MY_SERVICE_TOKEN", "plain-looking-value")
    monkeypatch.setenv("DB_PASSWORD", "correct horse")
    monkeypatch.setenv("SHORT_KEY", "1")  # too short to be a secret: text stays readable
    register_secret("value-of-an-oddly-named-variable")
    text = "a plain-looking-value b correct horse c 1 d value-of-an-oddly-named-variable"
    assert redact(text) == "a *** b *** c 1 d ***"
    assert redact_data({"k": [text, 3, None]}) == {"k": ["a *** b *** c 1 d ***", 3, None]}
    assert redact("nothing secret at https://example.com/a:b") == (
        "nothing secret at https://example.com/a:b"
    )


def test_scrubbed_env_keeps_what_is_asked_for(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", KEY)
    monkeypatch.setenv("GITHUB_TOKEN", "ghp-needed")
    env = scrubbed_env(["GITHUB_TOKEN"])
    assert "OPENAI_API_KEY" not in env and env["GITHUB_TOKEN"] == "ghp-needed"
    assert env.get("PATH")


def test_user_errors_and_mcp_replies_are_masked(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", KEY)
    exc = UserError(f"server said: bad key {KEY}", hint=f"http://u:{URL_PASSWORD}@h/")
    assert KEY not in str(exc) and URL_PASSWORD not in str(exc)
    reply = error_result(f"boom {KEY}", f"hint {KEY}")
    assert KEY not in reply.content[0].text and KEY not in json.dumps(reply.structured_content)
    payload = payload_result({"runs": [{"error": f"echo {KEY}"}]})
    assert KEY not in payload.content[0].text
    assert KEY not in json.dumps(payload.structured_content)


SCENARIO = """\
scenario:
  name: leaky
  simulation_context: |
    1. Say "hello"
  goals:
    criteria:
      - The agent answers
"""


def _leaky_agent(turn: UserTurn, state: dict[str, Any]) -> AgentReply:
    if turn.type == "start":
        return AgentReply()
    raise ConnectionError(f"upstream said: invalid key {KEY} for Bearer {KEY}")


@pytest.fixture
def leaky_env(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    for name in ("CASEGEN_MODEL", "CASEGEN_JUDGE_MODEL", "CASEGEN_SIMULATOR_MODEL"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("OPENAI_API_KEY", KEY)
    with target_override("leaky", lambda spec: FunctionTarget(_leaky_agent, spec=spec)):
        yield


def _files_under(root: Path) -> dict[str, bytes]:
    return {str(p): p.read_bytes() for p in root.rglob("*") if p.is_file()}


def test_an_agent_echoing_the_key_leaves_it_nowhere(
    tmp_path: Path, run_cli, leaky_env: None
) -> None:
    case = tmp_path / "cases" / "leaky.yml"
    case.parent.mkdir()
    case.write_text(SCENARIO, "utf-8")
    code, out, err = run_cli(
        "run",
        case,
        "--target",
        f"leaky:http://casegen:{URL_PASSWORD}@agent.local/x",
        "--model",
        "offline",
        "--results",
        tmp_path / "r",
        "--junit",
        tmp_path / "r" / "junit.xml",
        "--json",
    )
    assert code == 3, out + err
    assert KEY not in out + err and MASK in json.loads(out)["runs"][0]["error"]
    written = _files_under(tmp_path / "r")
    assert any(name.endswith("run_1.json") for name in written)
    assert any(name.endswith("summary.md") for name in written)
    assert URL_PASSWORD not in out + err
    for name, data in written.items():
        assert KEY.encode() not in data, f"{name} holds the key"
        assert URL_PASSWORD.encode() not in data, f"{name} holds the URL's password"


def test_an_endpoint_echoing_the_key_leaves_it_nowhere(
    tmp_path: Path, run_cli, openai_stub: StubOpenAI, monkeypatch: pytest.MonkeyPatch
) -> None:
    for name in ("CASEGEN_MODEL", "CASEGEN_JUDGE_MODEL", "CASEGEN_SIMULATOR_MODEL"):
        monkeypatch.delenv(name, raising=False)
    openai_stub.handler = lambda request: Reply(
        status=500, error=f"upstream rejected key {KEY}. Bearer {KEY}"
    )
    base = openai_stub.base_url.replace("http://", f"http://casegen:{URL_PASSWORD}@")
    monkeypatch.setenv("OPENAI_BASE_URL", base)
    monkeypatch.setenv("OPENAI_API_KEY", KEY)
    project = tmp_path / "bank"
    shutil.copytree(EXAMPLES / "bank", project)
    (project / "casegen.toml").write_text("max_retries = 0\n", "utf-8")
    monkeypatch.chdir(tmp_path)
    code, out, err = run_cli(
        "generate",
        "card_replace",
        "--project",
        project,
        "--model",
        "stub-model",
        "--out",
        tmp_path / "out",
        "--no-cache",
        "--count",
        "1",
        "--json",
    )
    assert openai_stub.requests, f"the stub was never asked: {out} {err}"
    assert out, (code, err)
    report = json.loads(out)
    assert report["failed"] and "server error" in report["failed"][0]["error"]
    for leak in (KEY, URL_PASSWORD):
        assert leak not in out + err
        for name, data in _files_under(tmp_path).items():
            if "/bank/" in name:
                continue
            assert leak.encode() not in data, f"{name} holds {leak}"
    assert (tmp_path / ".casegen" / "checkpoints.sqlite").is_file()


def _every_pattern(text: str) -> str:
    """`redact` without its shortcut: the three patterns always applied."""
    import evalcore.redact as r

    text = r._BEARER.sub(lambda m: f"{m.group(1)} {MASK}", text)
    text = r._TOKEN.sub(MASK, text)
    return r._USERINFO.sub(lambda m: f"{m.group(1)}{MASK}@", text)


#: Credentials of every form the patterns know, their fragments and ordinary text.
_PIECES = [
    "Bearer abcdefghij",
    "bEaReR\t0123456789",
    "Authorization: Basic abcdefghij",
    "AUTHORIZATION:token abcdefghij",
    "sk-abcdefghij0123456789",
    "pk-proj-ABCDEFGHIJ0123456789",
    "rk-",
    "ghp_0123456789abcdefghij",
    "gho_",
    "github_pat_0123456789abcdefghij",
    "xoxb-0123456789",
    "AKIA0123456789ABCDEF",
    "http://u:p@",
    "git+ssh://bob@",
    "://",
    "u:p",
    "@",
    "/",
    " ",
    "abcdefghij",
    "0123456789",
    "\u212a",  # the Kelvin sign folds to "k" under IGNORECASE
    "x",
]


@settings(max_examples=400)
@given(st.lists(st.sampled_from(_PIECES), max_size=8).map("".join) | st.text(max_size=40))
def test_the_shortcut_for_texts_without_a_credential_changes_nothing(text: str) -> None:
    assert redact(text, secrets=[]) == _every_pattern(text)


def test_the_shortcut_keeps_every_credential_form() -> None:
    fragments = {"rk-", "gho_", "://", "u:p", "@", "/", " ", "abcdefghij", "0123456789", "x"}
    for text in _PIECES:
        framed = f"a {text} z"
        assert redact(framed, secrets=[]) == _every_pattern(framed)
        assert (MASK in redact(framed, secrets=[])) == (text not in fragments | {"\u212a"})


def test_a_record_repeating_a_text_is_redacted_in_every_place() -> None:
    leaked = f"echo {KEY}"
    value = {leaked: [leaked, {"k": leaked}], "n": (leaked, 1)}
    masked = "echo ***"
    assert redact_data(value, secrets=[KEY]) == {masked: [masked, {"k": masked}], "n": (masked, 1)}


_SECRETS = ["plain-secret-value", 'quote"d-secret', "tab\tsecret", KEY]
_TEXTS = st.sampled_from(_PIECES + _SECRETS) | st.text(max_size=20)
_JSON = st.recursive(
    _TEXTS | st.integers() | st.none() | st.booleans(),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(_TEXTS, inner, max_size=4),
    max_leaves=12,
)


@settings(max_examples=300)
@given(_JSON, st.sampled_from(["", *_SECRETS]))
def test_a_fresh_record_is_masked_as_the_walk_masks_it(value: Any, secret: str) -> None:
    """`redact_fresh` decides on the JSON text whether anything needs masking: it must
    give what the walk over every string gives (a secret JSON escapes takes the walk)."""
    import copy

    from evalcore import redact as redact_module
    from evalcore.redact import redact_fresh

    saved = set(redact_module._REGISTERED)
    try:
        register_secret(secret)
        assert redact_fresh(copy.deepcopy(value)) == redact_data(copy.deepcopy(value))
    finally:
        redact_module._REGISTERED.clear()
        redact_module._REGISTERED.update(saved)


def test_secrets_read_from_the_environment_table_follow_every_change(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """`os.environ` is read from its encoded table: the same values as reading it through
    its mapping, before and after a variable is set, changed and removed."""
    from evalcore.redact import known_secrets

    def through_the_mapping() -> list[str]:
        return known_secrets(dict(os.environ))

    monkeypatch.setenv("CASEGEN_TEST_TOKEN", "first-value-1")
    monkeypatch.setenv("CASEGEN_TEST_FLAG_KEY", "1")  # too short to be a secret
    monkeypatch.setenv("CASEGEN_TEST_PLAIN", "not-a-secret-name")
    assert "first-value-1" in known_secrets() and known_secrets() == through_the_mapping()
    monkeypatch.setenv("CASEGEN_TEST_TOKEN", "second-value-2")
    assert "first-value-1" not in known_secrets() and "second-value-2" in known_secrets()
    monkeypatch.setenv("CASEGEN_Ü_PASSWORD", "päss-wörd-ü")
    assert known_secrets() == through_the_mapping() and "päss-wörd-ü" in known_secrets()
    monkeypatch.delenv("CASEGEN_TEST_TOKEN")
    assert "second-value-2" not in known_secrets() and known_secrets() == through_the_mapping()
    assert "not-a-secret-name" not in known_secrets()
