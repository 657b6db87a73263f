"""`make test-llm`: casegen against real llama.cpp servers on loopback (never in `make test`).

Collected only with CASEGEN_LLM_REAL=1 (the Makefile target sets it after
scripts/llm_real_setup.sh has built the servers and fetched the model into .casegen/llm/).
Each server is started on 127.0.0.1 on a free port, waited for, and stopped at the end.
"""

from __future__ import annotations

import json
import os
import socket
import subprocess
import time
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
LLM = REPO / ".casegen" / "llm"
MODEL = LLM / "models" / "SmolLM2-135M-Instruct.Q4_1.gguf"
ALIAS = "smollm2"
CONTEXT = 8192

if os.environ.get("CASEGEN_LLM_REAL") != "1":
    collect_ignore_glob = ["test_*.py"]


@dataclass(frozen=True)
class Server:
    """One running OpenAI-compatible server."""

    name: str
    base_url: str
    log: Path
    alias: str = ALIAS
    context: int = CONTEXT
    figures: Path = LLM


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _command(name: str, port: int) -> list[str]:
    threads = os.environ.get("LLM_THREADS", "2")
    if name == "llama-cpp-python":
        return [
            str(LLM / "venv" / "bin" / "python"),
            "-m",
            "llama_cpp.server",
            "--model", str(MODEL),
            "--model_alias", ALIAS,
            "--host", "127.0.0.1",
            "--port", str(port),
            "--n_ctx", str(CONTEXT),
            "--n_threads", threads,
        ]  # fmt: skip
    return [
        str(LLM / "llama.cpp-build" / "bin" / "llama-server"),
        "-m", str(MODEL),
        "--alias", ALIAS,
        "--host", "127.0.0.1",
        "--port", str(port),
        "-c", str(CONTEXT),
        "-np", "1",
        "-t", threads,
        "--jinja",
    ]  # fmt: skip


def _wait(base_url: str, process: subprocess.Popen[bytes], log: Path, limit_s: float) -> None:
    deadline = time.monotonic() + limit_s
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"server exited with {process.returncode}; see {log}")
        try:
            with urllib.request.urlopen(base_url + "/models", timeout=2) as answer:
                if json.load(answer).get("data"):
                    return
        except OSError:
            pass
        time.sleep(1)
    raise RuntimeError(f"server at {base_url} not ready after {limit_s:g}s; see {log}")


@pytest.fixture(scope="module", params=["llama-cpp-python", "llama-server"])
def server(request: pytest.FixtureRequest) -> Iterator[Server]:
    name = request.param
    command = _command(name, port := _free_port())
    if not Path(command[0]).exists():
        pytest.fail(f"{command[0]} is missing: run `make test-llm` (scripts/llm_real_setup.sh)")
    log = LLM / f"{name}.log"
    base_url = f"http://127.0.0.1:{port}/v1"
    with log.open("wb") as sink:
        process = subprocess.Popen(command, stdout=sink, stderr=subprocess.STDOUT)
        try:
            _wait(base_url, process, log, 180)
            yield Server(name, base_url, log)
        finally:
            process.terminate()
            try:
                process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                process.kill()
