"""`casegen mcp`'s quick start: a client's first questions answered while the SDK loads.

A coding agent starts the server each session and first asks the same things: who it is
(`server/discover`, or the `initialize` handshake of older protocol versions) and its tools
(`tools/list`). Importing the MCP SDK alone takes longer than the answer may (0.5–0.9 s of
CPU, two protocol versions of pydantic models), yet the answers depend only on casegen's
code, the SDK's version and the server's options. So the server keeps them: the SDK's own
answers, recorded as they went out, in a JSON file under casegen's cache folder, named by
a digest of the code (every module's size and modification time), the SDK, the
interpreter and the options. On the next start a thread answers those questions from the
file at once and hands every other message to the SDK server, which runs as before on
pipes set in place of stdin and stdout (it is none the wiser). A missing, unreadable or
stale file only means the SDK answers, and its answers are recorded for the next start.

An `initialize` answered from the file leaves the SDK's session uninitialized: before the
first message the SDK must see, the held `initialize` and `notifications/initialized` go to
it first and its second answer to that `initialize` is dropped. The file holds JSON only.
"""

from __future__ import annotations

import contextlib
import hashlib
import importlib.util
import json
import os
import sys
import tempfile
import threading
from pathlib import Path
from typing import Any, BinaryIO

from evalcore import (
    cache_root,
    read_cache,  # bounded, and only a file this user owns
)

#: Requests whose answers are kept (each keyed by its method and params, id left out).
KEPT = frozenset({"server/discover", "initialize", "tools/list"})
_PACKAGES = ("agentflows", "evalcore")
_SDK = ("mcp", "mcp_types")
_END = b"\x00casegen-mcp-end\n"


def _code_state() -> list[Any]:
    """Size and modification time of every casegen module and the SDK's package files."""
    state: list[Any] = [sys.version, sys.executable]
    roots = [Path(__file__).resolve().parents[2] / name for name in _PACKAGES]
    for name in _SDK:
        spec = importlib.util.find_spec(name)
        if spec is None or spec.origin is None:
            raise LookupError(f"{name} is not installed")
        roots.append(Path(spec.origin).parent)
    for root in roots:
        for folder, subfolders, files in os.walk(root):
            subfolders[:] = sorted(d for d in subfolders if d != "__pycache__")
            for name in sorted(files):
                if name.endswith(".py"):
                    stat = os.stat(os.path.join(folder, name))
                    state.append((folder, name, stat.st_size, stat.st_mtime_ns))
    return state


def answers_path(options: dict[str, Any]) -> Path:
    """The file of kept answers for this code, SDK and these options."""
    state = json.dumps([_code_state(), options, os.getcwd()], default=str).encode()
    return cache_root() / "mcp" / f"answers-{hashlib.sha256(state).hexdigest()[:32]}.json"


def _request_key(method: str, params: Any) -> str:
    return json.dumps([method, params], sort_keys=True, separators=(",", ":"))


class QuickFront:
    """Answers kept requests from `path`; everything else goes to the SDK server on fd 0."""

    def __init__(self, path: Path) -> None:
        self.path = path
        raw = read_cache(path)
        try:
            loaded = json.loads(raw) if raw is not None else {}
        except ValueError:
            loaded = {}
        self.answers: dict[str, Any] = loaded if isinstance(loaded, dict) else {}
        self._out_lock = threading.Lock()
        self._recording: dict[str, str] = {}  # request id (JSON) → its key, while the SDK answers
        self._held: list[bytes] = []  # an initialize answered here, and its notification
        self._handed = False  # a message went to the SDK: what is held went first
        self._dropped: str | None = None  # the id of the held initialize: its answer is dropped
        self._threads: list[threading.Thread] = []

    def start(self) -> None:
        """Put pipes in place of fd 0 and 1 and start the two threads between them."""
        client_in, client_out = os.dup(0), os.dup(1)
        sdk_in_read, self._sdk_in = os.pipe()
        sdk_out_read, sdk_out_write = os.pipe()
        os.dup2(sdk_in_read, 0)
        os.dup2(sdk_out_write, 1)
        os.close(sdk_in_read)
        os.close(sdk_out_write)
        self._client = os.fdopen(client_out, "wb", buffering=0)
        for target, stream in (
            (self._from_client, os.fdopen(client_in, "rb")),
            (self._from_sdk, os.fdopen(sdk_out_read, "rb")),
        ):
            thread = threading.Thread(target=target, args=(stream,), daemon=True)
            thread.start()
            self._threads.append(thread)

    def finish(self) -> None:
        """After the SDK server returned: what it wrote reaches the client before exit. The
        SDK keeps a duplicate of fd 1 open, so the pipe never ends: a last line no JSON
        message can be (it holds a NUL) tells the thread it has read everything."""
        with contextlib.suppress(OSError):
            sys.stdout.flush()
            os.write(1, _END)
            self._threads[1].join(timeout=5)
            os.dup2(self._client.fileno(), 1)  # what is written after goes to the client

    # --- client → SDK ----------------------------------------------------------------------

    def _from_client(self, stream: BinaryIO) -> None:
        try:
            for line in stream:
                self._take(line)
        finally:
            os.close(self._sdk_in)  # the client closed: the SDK server ends

    def _take(self, line: bytes) -> None:
        try:
            message = json.loads(line)
        except ValueError:
            message = None
        if isinstance(message, dict):
            method, ident = message.get("method"), message.get("id")
            if method in KEPT and "id" in message:
                key = _request_key(method, message.get("params"))
                if key in self.answers and (method != "initialize" or not self._handed):
                    if method == "initialize":
                        self._held = [line]
                    answer = {"jsonrpc": "2.0", "id": ident, "result": self.answers[key]}
                    self._send(json.dumps(answer))
                    return
                self._recording[json.dumps(ident)] = key
            elif method == "notifications/initialized" and self._held and not self._handed:
                self._held.append(line)
                return
        if self._held and not self._handed:
            self._dropped = json.dumps(json.loads(self._held[0]).get("id"))
            for held in self._held:
                os.write(self._sdk_in, held)
        self._handed = True
        os.write(self._sdk_in, line)

    # --- SDK → client ----------------------------------------------------------------------

    def _from_sdk(self, stream: BinaryIO) -> None:
        for line in stream:
            if line == _END:
                return
            try:
                message = json.loads(line)
            except ValueError:
                message = None
            if isinstance(message, dict) and "method" not in message and "id" in message:
                ident = json.dumps(message["id"])
                if ident == self._dropped:
                    self._dropped = None  # answered once already, from the file
                    continue
                key = self._recording.pop(ident, None)
                if key is not None and "result" in message:
                    self._keep(key, message["result"])
            with self._out_lock:
                self._client.write(line)

    def _send(self, text: str) -> None:
        with self._out_lock:
            self._client.write(text.encode() + b"\n")

    def _keep(self, key: str, result: Any) -> None:
        """Record one answer (written at once, atomically; an unwritable folder is fine)."""
        self.answers[key] = result
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            fd, temp = tempfile.mkstemp(dir=self.path.parent, suffix=".tmp")
            with os.fdopen(fd, "w", encoding="utf-8") as handle:
                json.dump(self.answers, handle)
            os.replace(temp, self.path)
        except OSError:
            pass


def quick_front(options: dict[str, Any]) -> QuickFront | None:
    """The started front for these server options, or None where it cannot run (stdin
    or stdout is not a pipe-able descriptor, or the SDK is not installed)."""
    try:
        os.fstat(0), os.fstat(1)
        front = QuickFront(answers_path(options))
    except (OSError, LookupError, ValueError):
        return None
    front.start()
    return front


__all__ = ["KEPT", "QuickFront", "answers_path", "quick_front"]
