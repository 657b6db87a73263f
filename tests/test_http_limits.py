"""`http:` agents: one deadline per turn against a trickling server, a short close after a
timed-out turn, and a capped reply read in chunks."""

from __future__ import annotations

import contextlib
import json
import threading
import time
from collections.abc import Callable, Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from evalcore.agents import UserTurn, _http, parse_target
from evalcore.agents._errors import AgentProtocolError, AgentTimeout
from evalcore.runner import RunCase

CASE = RunCase(slug="c", name="c", dialect="anychat", path="", setup={})
Behaviour = Callable[[BaseHTTPRequestHandler, dict], None]


def _trickle(handler: BaseHTTPRequestHandler, body: dict) -> None:
    payload = b'{"messages": [{"text": "' + b"x" * 200 + b'"}]}'
    handler.send_response(200)
    handler.send_header("Content-Type", "application/json")
    handler.send_header("Content-Length", str(len(payload)))
    handler.end_headers()
    for byte in payload:  # one byte every 0.1 s: no single read ever waits 1 s
        handler.wfile.write(bytes([byte]))
        handler.wfile.flush()
        time.sleep(0.1)


def _hang_on_close(handler: BaseHTTPRequestHandler, body: dict) -> None:
    if body.get("close"):
        time.sleep(5)
    _trickle(handler, body)


def _huge(handler: BaseHTTPRequestHandler, body: dict) -> None:
    text = "y" * (3 * 1024 * 1024)
    payload = json.dumps({"messages": [{"text": text}]}).encode()
    handler.send_response(200)
    handler.send_header("Content-Type", "application/json")
    handler.send_header("Content-Length", str(len(payload)))
    handler.end_headers()
    with contextlib.suppress(BrokenPipeError, ConnectionResetError):
        handler.wfile.write(payload)


@pytest.fixture
def serve() -> Iterator[Callable[[Behaviour], str]]:
    servers: list[ThreadingHTTPServer] = []

    def start(behaviour: Behaviour) -> str:
        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args: object) -> None:
                pass

            def do_POST(self) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                body = json.loads(self.rfile.read(length) or b"{}")
                with contextlib.suppress(BrokenPipeError, ConnectionResetError):
                    behaviour(self, body)

        server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        server.daemon_threads = True
        threading.Thread(target=server.serve_forever, daemon=True).start()
        servers.append(server)
        return f"http://127.0.0.1:{server.server_address[1]}/agent"

    yield start
    for server in servers:
        server.shutdown()
        server.server_close()


async def test_a_trickling_server_is_stopped_at_the_turn_deadline(serve) -> None:
    target = parse_target(f"http:{serve(_trickle)}", timeout_s=1)
    session = await target.open(CASE, 1)
    started = time.monotonic()
    with pytest.raises(AgentTimeout, match=r"within 1s"):
        await session.send(UserTurn(type="text", text="hi"))
    assert time.monotonic() - started < 2.0  # the whole reply would take 20 s


async def test_the_close_after_a_timed_out_turn_is_short(
    serve, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(_http, "CLOSE_AFTER_TIMEOUT_S", 0.3)
    target = parse_target(f"http:{serve(_hang_on_close)}", timeout_s=1.5)
    session = await target.open(CASE, 1)
    with pytest.raises(AgentTimeout):
        await session.send(UserTurn(type="text", text="hi"))
    started = time.monotonic()
    with pytest.raises(AgentTimeout, match=r"closing the session.*within 0\.3s"):
        await session.close()
    assert time.monotonic() - started < 1.0  # not a fresh 1.5 s


async def test_a_reply_over_the_cap_is_refused_and_says_so(serve) -> None:
    target = parse_target(f"http:{serve(_huge)}", timeout_s=30)
    session = await target.open(CASE, 1)
    with pytest.raises(AgentProtocolError, match=r"more than 1,048,576 bytes") as caught:
        await session.send(UserTurn(type="text", text="hi"))
    assert "max_output_bytes" in (caught.value.hint or "")


async def test_the_reply_cap_is_configurable(serve, tmp_path) -> None:
    (tmp_path / "casegen.toml").write_text(f"max_output_bytes = {8 * 1024 * 1024}\n", "utf-8")
    case = RunCase(slug="c", name="c", dialect="anychat", path=str(tmp_path / "c.json"))
    target = parse_target(f"http:{serve(_huge)}", timeout_s=30)
    session = await target.open(case, 1)
    reply = await session.send(UserTurn(type="text", text="hi"))
    assert len(reply.messages[0].text) == 3 * 1024 * 1024
