"""Bad answers from a model endpoint are findings, never tracebacks, and a key the endpoint
echoes never reaches what casegen prints or writes (`doctor`, `review`, `generate`)."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest
from conftest import EXAMPLES
from stub_openai import stub_fixture
from test_generate_endpoint import MODEL_ENV

BANK = EXAMPLES / "bank"
CASE = BANK / "eval" / "scenarios" / "card_replace_stolen.yml"
KEY = "sk-echo-secret-key-1234567890abcdef"
NESTED = ("[" * 100_000 + "]" * 100_000).encode()

#: (status, content type, body) the endpoint answers every request with.
BODIES: dict[str, tuple[int, str, bytes]] = {
    "garbage": (200, "application/json", b"\x00\xffnot json at all"),
    "no-choices": (
        200,
        "application/json",
        json.dumps({"id": "x", "data": [{"id": "m"}]}).encode(),
    ),
    "deep-json": (200, "application/json", NESTED),
    "deep-choices": (200, "application/json", b'{"choices": ' + NESTED + b"}"),
    "event-stream": (
        200,
        "text/event-stream",
        b'data: {"choices":[{"delta":{"content":"hi"}}]}\n\ndata: [DONE]\n\n',
    ),
    "message-not-object": (200, "application/json", b'{"choices": [{"message": "text"}]}'),
    "echo-401": (
        401,
        "application/json",
        json.dumps({"error": {"message": f"Incorrect API key provided: {KEY}"}}).encode(),
    ),
    "echo-500": (500, "text/plain", f"internal error for key {KEY}".encode()),
}


@pytest.fixture
def endpoint(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Iterator[dict[str, Any]]:
    """A loopback server answering every request with `state["body"]`."""
    state: dict[str, Any] = {"body": BODIES["garbage"]}

    class Handler(BaseHTTPRequestHandler):
        def _answer(self) -> None:
            status, kind, body = state["body"]
            self.send_response(status)
            self.send_header("Content-Type", kind)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def do_GET(self) -> None:
            self._answer()

        def do_POST(self) -> None:
            self.rfile.read(int(self.headers.get("Content-Length") or 0))
            self._answer()

        def log_message(self, *args: Any) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    for name in MODEL_ENV:
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("NO_PROXY", "127.0.0.1,localhost")
    monkeypatch.setenv("OPENAI_BASE_URL", f"http://127.0.0.1:{server.server_address[1]}/v1")
    monkeypatch.setenv("OPENAI_API_KEY", KEY)
    monkeypatch.chdir(tmp_path)
    try:
        yield state
    finally:
        server.shutdown()
        server.server_close()


COMMANDS = {
    "doctor": ["doctor", "--project", str(BANK), "--model", "m", "--no-smoke"],
    "review": ["review", str(CASE), "--project", str(BANK), "--model", "m", "--no-cache"],
}


@pytest.mark.parametrize("body", list(BODIES))
@pytest.mark.parametrize("command", list(COMMANDS))
def test_a_bad_answer_is_a_finding_not_a_traceback(
    endpoint: dict[str, Any], run_cli, command: str, body: str
) -> None:
    endpoint["body"] = BODIES[body]
    code, out, err = run_cli(*COMMANDS[command], "--json")
    assert "Traceback" not in err, err
    assert KEY not in out + err, "an echoed key was printed"
    payload = json.loads(out)
    assert code in (0, 1, 3), payload
    if command == "doctor":
        failed = [c for c in payload["checks"] if c["status"] in ("warn", "fail")]
        assert failed and all(c["detail"] for c in failed)
    else:
        notes = [n for f in payload.get("files", []) for n in f.get("notes", [])]
        assert notes or "error" in payload


def test_doctor_masks_an_echoed_key_in_its_table(endpoint: dict[str, Any], run_cli) -> None:
    for body in ("echo-401", "echo-500"):
        endpoint["body"] = BODIES[body]
        code, out, err = run_cli(*COMMANDS["doctor"])
        assert code in (0, 1, 3) and KEY not in out + err and "***" in out + err


critic_stub = stub_fixture(require_key=KEY)


def test_a_critique_that_echoes_the_key_is_masked(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, run_cli, critic_stub
) -> None:
    for name in MODEL_ENV:
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("OPENAI_BASE_URL", critic_stub.base_url)
    monkeypatch.setenv("OPENAI_API_KEY", KEY)
    monkeypatch.chdir(tmp_path)
    critic_stub.handler = lambda request: {
        "comments": [{"path": "", "message": f"The key {KEY} is in use.", "suggestion": KEY}]
    }
    _, out, err = run_cli(*COMMANDS["review"], "--json")
    assert "Traceback" not in err
    comments = [c for f in json.loads(out)["files"] for c in f["comments"]]
    assert any(c["code"] == "critique" for c in comments), comments
    assert KEY not in out + err


def test_a_generated_case_never_holds_an_echoed_key(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, run_cli, critic_stub
) -> None:
    for name in MODEL_ENV:
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("OPENAI_BASE_URL", critic_stub.base_url)
    monkeypatch.setenv("OPENAI_API_KEY", KEY)
    monkeypatch.chdir(tmp_path)
    critic_stub.handler = lambda request: {
        "name": f"Replacing a card for {KEY}",
        "simulation_context": f"The customer pastes {KEY} by mistake.",
        "criteria": [f"The agent never repeats {KEY}"],
    }
    out_dir = tmp_path / "out"
    _, out, err = run_cli(
        *("generate", "card_replace", "--project", BANK, "--model", "m"),
        *("--out", out_dir, "--no-cache", "--json"),
    )
    assert "Traceback" not in err
    written = [p.read_text() for p in out_dir.rglob("*.yml")]
    assert written, out
    assert all(KEY not in text for text in written)
