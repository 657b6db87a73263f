"""A scripted OpenAI-compatible server on loopback, for tests and benchmarks of model callers.

It speaks `POST /v1/chat/completions` well enough for the real `ChatOpenAI` client: a request
with `response_format: {type: json_schema}` (or none) gets the scripted value as the message
content, a request with `tools` gets it as a call of the chosen tool; every answer carries
`usage`. Faults are scripted the same way: invalid JSON, HTTP 429 with Retry-After, HTTP 500,
slow answers (for client timeouts), and a fixed delay on every answer (for benchmarks).

    with StubOpenAI() as stub:
        stub.script(ok({"scenario": {...}}), rate_limited(retry_after=0), invalid_json())
        stub.handler = lambda request: ok(...)   # used once the script is empty
        ... ChatOpenAI(base_url=stub.base_url, api_key=stub.api_key, ...) ...
        stub.requests[0].text                    # the prompt the client sent

In a test module, `openai_stub = stub_fixture()` makes a fixture of a running stub.
"""

from __future__ import annotations

import itertools
import json
import threading
import time
from collections import deque
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest

# --- what the stub answers ----------------------------------------------------------------


@dataclass
class Reply:
    """One scripted answer (or fault)."""

    value: Any = None
    """The structured value: sent as JSON content, or as the tool call's arguments."""
    text: str | None = None
    """Sent verbatim instead of `json.dumps(value)` (invalid JSON, plain chat replies)."""
    status: int = 200
    error: str = "stub error"
    """The error message of a non-200 answer."""
    headers: dict[str, str] = field(default_factory=dict)
    delay_s: float = 0.0
    """Wait this long before answering (on top of the stub's fixed delay)."""
    input_tokens: int = 100
    output_tokens: int = 20
    finish_reason: str | None = None
    """Default: `tool_calls` for a tool call, else `stop`."""


def ok(value: Any, **options: Any) -> Reply:
    return Reply(value=value, **options)


def text(content: str, **options: Any) -> Reply:
    """A plain chat answer (for callers that do not ask for structured output)."""
    return Reply(text=content, **options)


def invalid_json(content: str = '{"scenario": {"name": "cut off', **options: Any) -> Reply:
    return Reply(text=content, **options)


def rate_limited(retry_after: float | None = 0, **options: Any) -> Reply:
    headers = {} if retry_after is None else {"Retry-After": f"{retry_after:g}"}
    return Reply(status=429, error="stub: rate limit reached", headers=headers, **options)


def server_error(status: int = 500, **options: Any) -> Reply:
    return Reply(status=status, error=f"stub: server error {status}", **options)


def slow(seconds: float, value: Any = None, **options: Any) -> Reply:
    """An answer that arrives after `seconds` (past the client's timeout, if shorter)."""
    return Reply(value=value, delay_s=seconds, **options)


# --- what the stub received ---------------------------------------------------------------


@dataclass
class RecordedRequest:
    """One request as the stub received it."""

    method: str
    path: str
    headers: dict[str, str]
    body: dict[str, Any]
    received_at: float

    @property
    def mode(self) -> str:
        """`json_schema`, `tools`, `json` (json_object) or `text`: how the client asked to
        be answered."""
        if self.body.get("tools"):
            return "tools"
        kind = (self.body.get("response_format") or {}).get("type")
        return {"json_schema": "json_schema", "json_object": "json"}.get(kind, "text")

    @property
    def messages(self) -> list[dict[str, Any]]:
        return list(self.body.get("messages") or [])

    @property
    def text(self) -> str:
        """Every message's text, joined (to assert on what the prompt said)."""
        return "\n\n".join(_content_text(m.get("content")) for m in self.messages)

    @property
    def schema(self) -> dict[str, Any] | None:
        """The JSON Schema asked for (response_format or the chosen tool's parameters)."""
        if self.mode == "json_schema":
            return self.body["response_format"]["json_schema"].get("schema")
        if self.mode == "tools":
            return _chosen_tool(self.body)["function"].get("parameters")
        if self.mode == "json":
            return self.body["response_format"].get("schema")
        return None

    @property
    def schema_name(self) -> str | None:
        if self.mode == "json_schema":
            return self.body["response_format"]["json_schema"].get("name")
        if self.mode == "tools":
            return _chosen_tool(self.body)["function"]["name"]
        return None


Handler = Callable[[RecordedRequest], Any]


# --- the server ---------------------------------------------------------------------------


class StubOpenAI:
    """The stub server: a thread serving loopback on an ephemeral port.

    Args:
        handler: Answers requests once the script is empty: returns a `Reply` or a plain
            value (sent as `ok(value)`). Without one, an unscripted request gets HTTP 400,
            which clients do not retry, so a test fails fast and says why.
        delay_s: A fixed delay before every answer (benchmarks).
    """

    api_key = "stub-key"

    def __init__(
        self,
        handler: Handler | None = None,
        *,
        delay_s: float = 0.0,
        require_key: str | None = None,
        models: list[str] | None = None,
    ) -> None:
        self.handler = handler
        self.delay_s = delay_s
        self.require_key = require_key
        """When set, a request without `Authorization: Bearer <it>` gets HTTP 401."""
        self.models = models if models is not None else ["stub"]
        """What `GET /v1/models` lists."""
        self.props: dict[str, Any] | None = None
        """What `GET /props` answers (llama.cpp's server settings); None: HTTP 404."""
        self.requests: list[RecordedRequest] = []
        self.in_flight = 0
        """Chat requests received and not yet answered."""
        self.most_in_flight = 0
        """The most chat requests held at once (a client's concurrency, as the server saw it)."""
        self.answered_at: list[float] = []
        """`time.monotonic()` of each chat answer sent, in order."""
        self._script: deque[Reply] = deque()
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._ids = itertools.count(1)
        self._server: ThreadingHTTPServer | None = None
        self._thread: threading.Thread | None = None

    # scripting

    def script(self, *replies: Reply | Any) -> StubOpenAI:
        """Queue answers, served in order before the handler is asked."""
        with self._lock:
            self._script.extend(r if isinstance(r, Reply) else ok(r) for r in replies)
        return self

    @property
    def pending(self) -> int:
        """Scripted answers not served yet."""
        with self._lock:
            return len(self._script)

    # lifecycle

    @property
    def base_url(self) -> str:
        if self._server is None:
            raise RuntimeError("the stub server is not running")
        host, port = self._server.server_address[:2]
        return f"http://{host}:{port}/v1"

    def start(self) -> StubOpenAI:
        self._stop.clear()
        self._server = _Server(("127.0.0.1", 0), _handler_class(self))
        self._thread = threading.Thread(
            target=self._server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True
        )
        self._thread.start()
        return self

    def stop(self) -> None:
        self._stop.set()  # wakes handlers sleeping on a slow answer
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()
        if self._thread is not None:
            self._thread.join(timeout=5)
        self._server = self._thread = None

    def __enter__(self) -> StubOpenAI:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    # answering (called on server threads)

    def _record(self, request: RecordedRequest) -> None:
        with self._lock:
            self.requests.append(request)
            self.in_flight += 1
            self.most_in_flight = max(self.most_in_flight, self.in_flight)

    def _done(self) -> None:
        with self._lock:
            self.in_flight -= 1
            self.answered_at.append(time.monotonic())

    def _next_reply(self, request: RecordedRequest) -> Reply:
        with self._lock:
            scripted = self._script.popleft() if self._script else None
        if scripted is not None:
            return scripted
        if self.handler is None:
            return Reply(status=400, error="stub: no scripted reply left for this request")
        answer = self.handler(request)
        return answer if isinstance(answer, Reply) else ok(answer)

    def _completion(self, request: RecordedRequest, reply: Reply) -> dict[str, Any]:
        content = reply.text if reply.text is not None else json.dumps(reply.value)
        number = next(self._ids)
        if request.mode == "tools":
            message: dict[str, Any] = {
                "role": "assistant",
                "content": None,
                "tool_calls": [
                    {
                        "id": f"call_stub_{number}",
                        "type": "function",
                        "function": {
                            "name": _chosen_tool(request.body)["function"]["name"],
                            "arguments": content,
                        },
                    }
                ],
            }
            finish = reply.finish_reason or "tool_calls"
        else:
            message = {"role": "assistant", "content": content}
            finish = reply.finish_reason or "stop"
        return {
            "id": f"chatcmpl-stub-{number}",
            "object": "chat.completion",
            "created": int(time.time()),
            "model": request.body.get("model", "stub"),
            "choices": [
                {"index": 0, "message": message, "finish_reason": finish, "logprobs": None}
            ],
            "usage": {
                "prompt_tokens": reply.input_tokens,
                "completion_tokens": reply.output_tokens,
                "total_tokens": reply.input_tokens + reply.output_tokens,
            },
        }


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    block_on_close = False
    request_queue_size = 128  # benchmarks open many connections at once


def _handler_class(stub: StubOpenAI) -> type[BaseHTTPRequestHandler]:
    class _Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"  # keep-alive, as the OpenAI client expects
        # Headers and body go out in separate writes; with Nagle's algorithm on, the body
        # waits for the client's delayed ACK (~40 ms), which would swamp the timings.
        disable_nagle_algorithm = True

        def log_message(self, format: str, *args: Any) -> None:
            pass  # keep test output clean

        def _refused(self) -> bool:
            wanted = stub.require_key
            if wanted is None or self.headers.get("Authorization") == f"Bearer {wanted}":
                return False
            self._send(401, _error("stub: invalid API key", 401))
            return True

        def do_GET(self) -> None:
            if self._refused():
                return
            if self.path.rstrip("/") == "/props" and stub.props is not None:
                self._send(200, stub.props)
            elif self.path.rstrip("/").endswith("/models"):
                data = [{"id": name, "object": "model"} for name in stub.models]
                self._send(200, {"object": "list", "data": data})
            else:
                self._send(404, _error("stub: not found", 404))

        def do_POST(self) -> None:
            length = int(self.headers.get("Content-Length") or 0)
            raw = self.rfile.read(length) if length else b""
            try:
                body = json.loads(raw or b"{}")
            except ValueError:
                self._send(400, _error("stub: request body is not JSON", 400))
                return
            request = RecordedRequest(
                "POST", self.path, dict(self.headers.items()), body, time.monotonic()
            )
            if not self.path.rstrip("/").endswith("/chat/completions"):
                self._send(404, _error(f"stub: no endpoint {self.path}", 404))
                return
            stub._record(request)
            try:
                self._answer(request, body)
            finally:
                stub._done()

        def _answer(self, request: RecordedRequest, body: dict[str, Any]) -> None:
            if self._refused():
                return
            if body.get("stream"):
                self._send(400, _error("stub: streaming is not supported", 400))
                return
            try:
                reply = stub._next_reply(request)
                answer = stub._completion(request, reply) if reply.status == 200 else None
            except Exception as exc:  # a test's handler bug: fail fast (400 is not retried)
                self._send(400, _error(f"stub: handler failed: {exc!r}", 400))
                return
            wait = stub.delay_s + reply.delay_s
            if wait > 0 and stub._stop.wait(wait):
                return  # the stub is shutting down
            if answer is None:
                self._send(reply.status, _error(reply.error, reply.status), reply.headers)
            else:
                self._send(200, answer, reply.headers)

        def _send(
            self, status: int, payload: dict[str, Any], headers: dict[str, str] | None = None
        ) -> None:
            data = json.dumps(payload).encode("utf-8")
            try:
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                for name, value in (headers or {}).items():
                    self.send_header(name, value)
                self.end_headers()
                self.wfile.write(data)
            except (BrokenPipeError, ConnectionResetError):
                pass  # the client gave up (a timeout test); nothing to answer

    return _Handler


def _error(message: str, status: int) -> dict[str, Any]:
    kind = {429: "rate_limit_exceeded", 400: "invalid_request_error"}.get(status, "server_error")
    return {"error": {"message": message, "type": kind, "code": kind, "param": None}}


def _chosen_tool(body: dict[str, Any]) -> dict[str, Any]:
    tools = body.get("tools") or []
    choice = body.get("tool_choice")
    name = None
    if isinstance(choice, dict):
        name = (choice.get("function") or {}).get("name")
    elif isinstance(choice, str) and choice not in ("auto", "required", "any", "none"):
        name = choice
    for tool in tools:
        if name is None or tool["function"]["name"] == name:
            return tool
    raise LookupError(f"stub: tool_choice {choice!r} names no tool of the request")


def _content_text(content: Any) -> str:
    if isinstance(content, list):
        return "".join(part.get("text", "") for part in content if isinstance(part, dict))
    return content or ""


# --- pytest -------------------------------------------------------------------------------


def stub_fixture(**options: Any) -> Any:
    """A pytest fixture yielding a running `StubOpenAI(**options)`, for a test module:

        openai_stub = stub_fixture()

    Loopback is kept off any proxy the environment configures.
    """

    @pytest.fixture
    def _stub(monkeypatch: pytest.MonkeyPatch) -> Iterator[StubOpenAI]:
        monkeypatch.setenv("NO_PROXY", "127.0.0.1,localhost")
        monkeypatch.setenv("no_proxy", "127.0.0.1,localhost")
        with StubOpenAI(**options) as stub:
            yield stub

    return _stub


__all__ = [
    "RecordedRequest",
    "Reply",
    "StubOpenAI",
    "invalid_json",
    "ok",
    "rate_limited",
    "server_error",
    "slow",
    "stub_fixture",
    "text",
]


# --- as a separate process ------------------------------------------------------------------


def main(argv: list[str] | None = None) -> None:
    """Serve until stdin closes: `python tests/stub_openai.py --delay 0.2 --handler mod:fn`.

    Prints the base URL as the first line of stdout. Benchmarks use this so that the server's
    work does not compete with the client for the same interpreter, as a real server never
    does.
    """
    import argparse
    import importlib
    import sys

    parser = argparse.ArgumentParser(description=main.__doc__)
    parser.add_argument("--delay", type=float, default=0.0, help="seconds before each answer")
    parser.add_argument("--handler", help="module:function answering each request")
    args = parser.parse_args(argv)
    handler = None
    if args.handler:
        module, _, name = args.handler.partition(":")
        handler = getattr(importlib.import_module(module), name)
    with StubOpenAI(handler, delay_s=args.delay) as stub:
        print(stub.base_url, flush=True)
        sys.stdin.read()


if __name__ == "__main__":
    main()
