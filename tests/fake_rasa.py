"""Loopback fakes for agent targets: a generic JSON server and a small scripted Rasa server.

`FakeRasa` implements the three endpoints casegen uses (`/webhooks/rest/webhook`,
`/conversations/<id>/tracker/events`, `/conversations/<id>/tracker`) and answers with a scripted
card-replacement policy that emits Mantle tracker events (reference/mantle.md §6). Every request
is recorded so tests can assert exactly what was sent.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import unquote, urlsplit


@dataclass
class Recorded:
    method: str
    path: str
    query: str
    body: Any


@dataclass
class Answer:
    status: int = 200
    body: Any = None
    raw: bytes | None = None


Handler = Callable[[Recorded], Answer]


class JsonServer:
    """A threaded HTTP server on 127.0.0.1 that hands each JSON request to `handler`."""

    def __init__(self, handler: Handler, *, delay_s: float = 0.0) -> None:
        self.handler = handler
        self.delay_s = delay_s
        self.requests: list[Recorded] = []
        server = self

        class _Handler(BaseHTTPRequestHandler):
            def _serve(self) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                raw = self.rfile.read(length) if length else b""
                parts = urlsplit(self.path)
                recorded = Recorded(
                    self.command, unquote(parts.path), parts.query, json.loads(raw) if raw else None
                )
                server.requests.append(recorded)
                if server.delay_s:
                    time.sleep(server.delay_s)
                answer = server.handler(recorded)
                payload = (
                    answer.raw
                    if answer.raw is not None
                    else (b"" if answer.body is None else json.dumps(answer.body).encode())
                )
                try:
                    self.send_response(answer.status)
                    self.send_header("Content-Type", "application/json")
                    self.send_header("Content-Length", str(len(payload)))
                    self.end_headers()
                    self.wfile.write(payload)
                except (BrokenPipeError, ConnectionResetError):
                    pass  # the client gave up (timeout tests)

            do_GET = _serve
            do_POST = _serve

            def log_message(self, *args: Any) -> None:
                pass

        self._httpd = ThreadingHTTPServer(("127.0.0.1", 0), _Handler)
        self._httpd.daemon_threads = True
        self._thread = threading.Thread(target=self._httpd.serve_forever, args=(0.02,), daemon=True)

    @property
    def url(self) -> str:
        host, port = self._httpd.server_address[:2]
        return f"http://{host}:{port}"

    def __enter__(self) -> JsonServer:
        self._thread.start()
        return self

    def __exit__(self, *exc: Any) -> None:
        self._httpd.shutdown()
        self._httpd.server_close()


@dataclass
class _Conversation:
    events: list[dict[str, Any]] = field(default_factory=list)
    clock: float = 1_700_000_000.0

    def add(self, event: dict[str, Any]) -> dict[str, Any]:
        self.clock += 0.5
        self.events.append({**event, "timestamp": self.clock})
        return event


def _bot(
    conv: _Conversation,
    sender: str,
    utter: str,
    text: str,
    buttons: list[dict[str, str]] | None = None,
) -> dict[str, Any]:
    event: dict[str, Any] = {"event": "bot", "text": text, "metadata": {"utter_action": utter}}
    if buttons:
        event["data"] = {"buttons": buttons}
    conv.add(event)
    out: dict[str, Any] = {"recipient_id": sender, "text": text}
    if buttons:
        out["buttons"] = buttons
    return out


class FakeRasa(JsonServer):
    """A Rasa server with `--enable-api`, scripted for the card-replacement skill."""

    def __init__(self, *, delay_s: float = 0.0) -> None:
        super().__init__(self._handle, delay_s=delay_s)
        self.conversations: dict[str, _Conversation] = {}

    def _handle(self, req: Recorded) -> Answer:
        if req.method == "POST" and req.path == "/webhooks/rest/webhook":
            return Answer(body=self._message(req.body))
        if req.path.startswith("/conversations/"):
            sender, _, rest = req.path[len("/conversations/") :].partition("/")
            conv = self.conversations.setdefault(sender, _Conversation())
            if req.method == "POST" and rest == "tracker/events":
                for event in req.body if isinstance(req.body, list) else [req.body]:
                    conv.add(event)
                return Answer(body={"sender_id": sender, "events": None})
            if req.method == "GET" and rest == "tracker":
                return Answer(
                    body={
                        "sender_id": sender,
                        "slots": {},
                        "events": conv.events,
                        "latest_message": {},
                    }
                )
        return Answer(status=404, body={"error": "not found"})

    def _message(self, body: dict[str, Any]) -> list[dict[str, Any]]:
        sender, text = body["sender"], body["message"]
        conv = self.conversations.setdefault(sender, _Conversation())
        if text == "/session_start":
            metadata = body.get("metadata") or {}
            conv.add({"event": "action", "name": "action_session_start"})
            conv.add({"event": "session_started"})
            conv.add({"event": "memory_set", "key": "session_started_metadata", "value": metadata})
            for key, value in metadata.items():
                if key != "is_simulation":
                    conv.add({"event": "memory_set", "key": f"project.{key}", "value": value})
            reply = [_bot(conv, sender, "utter_greet", "Welcome to Riverbend Bank.")]
            conv.add({"event": "action", "name": "action_listen"})
            return reply
        conv.add({"event": "user", "text": text})
        lowered = text.lower()
        if "replace" in lowered or ("card" in lowered and "damaged" not in lowered):
            conv.add({"event": "skill_activated", "skill_id": "card_replace"})
            conv.add(
                {
                    "event": "ordered_block_entered",
                    "skill_id": "card_replace",
                    "block_id": "pick_card",
                }
            )
            reply = [
                _bot(
                    conv,
                    sender,
                    "utter_ask_replacement_reason",
                    "Why do you need a new card?",
                    [
                        {"title": "Damaged", "payload": "/damaged"},
                        {"title": "Stolen", "payload": "/stolen"},
                    ],
                )
            ]
        elif "damaged" in lowered:
            conv.add(
                {
                    "event": "memory_set",
                    "key": "card_replace.replacement_reason",
                    "value": "damaged",
                }
            )
            conv.add(
                {
                    "event": "tool_executed",
                    "tool_name": "place_replacement_order",
                    "arguments": {"shipping": "standard"},
                    "source": "local",
                    "result": {"order_id": "R-1"},
                    "is_error": False,
                    "error_message": None,
                    "metadata": {"skill_id": "card_replace"},
                }
            )
            conv.add(
                {
                    "event": "ordered_block_completed",
                    "skill_id": "card_replace",
                    "block_id": "pick_card",
                    "step_id": "select_card",
                }
            )
            reply = [
                _bot(conv, sender, "utter_order_placed", "Your replacement card is on its way."),
                _bot(conv, sender, "utter_anything_else", "Anything else?"),
            ]
            conv.add({"event": "skill_completed", "skill_id": "card_replace"})
        else:
            reply = [_bot(conv, sender, "utter_default", "Sorry, I can help with cards only.")]
        conv.add({"event": "action", "name": "action_listen"})
        return reply


def closed_port_url() -> str:
    """A loopback URL nothing listens on (connection refused)."""
    import socket

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    return f"http://127.0.0.1:{port}"
