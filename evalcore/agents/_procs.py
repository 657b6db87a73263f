"""Processes casegen starts for agents and checks: their environment, their end, their output.

Every such process starts in a new session (so its process group can be killed at once) with
a run token in its environment. At the end the group is killed, and so is every process that
still carries the token: that also reaches children that left the group with `setsid`. What
remains possible (a process that clears its environment *and* leaves the session, a daemon
started through another service) is written down in docs/security.md; a container is the way
to rule it out.

Output is read in chunks and kept up to a cap, so an agent printing 200 MB costs the cap in
memory, not 200 MB; the rest is read and dropped so the agent never blocks on a full pipe.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import uuid
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

from ..llm.config import find_settings
from ..redact import scrubbed_env

RUN_TOKEN_ENV = "CASEGEN_RUN_TOKEN"
DEFAULT_MAX_OUTPUT_BYTES = 1024 * 1024
_CHUNK = 64 * 1024


def new_token() -> str:
    return uuid.uuid4().hex


def child_env(
    token: str, *, pass_env: Iterable[str] = (), extra: dict[str, str] | None = None
) -> dict[str, str]:
    """The environment of a child: secrets left out (unless passed), the run token set."""
    env = scrubbed_env(pass_env)
    env.update(extra or {})
    env[RUN_TOKEN_ENV] = token
    return env


def _carriers(token: str) -> list[int]:
    """Pids of this user's processes whose environment holds the run token (Linux /proc)."""
    marker = f"{RUN_TOKEN_ENV}={token}".encode()
    found = []
    proc = Path("/proc")
    if not proc.is_dir():
        return found
    me = os.getpid()
    for entry in proc.iterdir():
        if not entry.name.isdigit() or int(entry.name) == me:
            continue
        try:
            environ = (entry / "environ").read_bytes()
        except OSError:  # gone, or another user's process
            continue
        if marker in environ.split(b"\0"):
            found.append(int(entry.name))
    return found


def kill_tree(pid: int | None, token: str | None) -> None:
    """Kill the process group of `pid`, then every process still carrying `token`."""
    if pid is not None:
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(pid, signal.SIGKILL)
    if token:
        for other in _carriers(token):
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.kill(other, signal.SIGKILL)


async def exited(proc: asyncio.subprocess.Process, poll_s: float = 0.05) -> int:
    """The exit status once the process ends, even while a child still holds its pipes open.

    (`Process.wait()` also waits for the pipes to close, so a background child could hold it.)
    """
    while proc.returncode is None:
        await asyncio.sleep(poll_s)
    return proc.returncode


@dataclass
class Captured:
    """What was kept of one output stream (filled while it is read, so a cut read keeps it)."""

    data: bytearray = field(default_factory=bytearray)
    total: int = 0

    @property
    def truncated(self) -> bool:
        return self.total > len(self.data)

    def text(self) -> str:
        return bytes(self.data).decode("utf-8", "replace")


async def read_capped(
    stream: asyncio.StreamReader | None, limit: int, into: Captured, *, tail: bool = False
) -> None:
    """Read `stream` to its end into `into`, keeping the first (`tail`: last) `limit` bytes."""
    if stream is None:
        return
    kept = into.data
    while chunk := await stream.read(_CHUNK):
        into.total += len(chunk)
        if tail:
            kept += chunk
            if len(kept) > limit:
                del kept[: len(kept) - limit]
        elif len(kept) < limit:
            kept += chunk[: limit - len(kept)]


def exec_settings(start: str | Path | None) -> tuple[int, list[str]]:
    """(`max_output_bytes`, `pass_env`) from the nearest `[tool.casegen]` / `casegen.toml`."""
    settings, _ = find_settings(start)
    return settings.max_output_bytes or DEFAULT_MAX_OUTPUT_BYTES, list(settings.pass_env or [])


__all__ = [
    "DEFAULT_MAX_OUTPUT_BYTES",
    "RUN_TOKEN_ENV",
    "Captured",
    "child_env",
    "exec_settings",
    "exited",
    "kill_tree",
    "new_token",
    "read_capped",
]
