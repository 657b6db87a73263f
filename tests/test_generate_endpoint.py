"""An endpoint that is down or refuses the key stops `generate` at once; `--resume` drafts
again what the endpoint failed; SIGTERM still reports the run id.

Before: with `OPENAI_BASE_URL=http://127.0.0.1:9/v1` every planned case retried into the
closed port (about 30 s, one identical line per case, exit 1).
"""

from __future__ import annotations

import asyncio
import json
import socket
import time
from pathlib import Path
from typing import Any

import httpx
import openai
import pytest
from conftest import EXAMPLES
from stub_openai import stub_fixture

from agentflows.drafting import DraftContext, DraftResult
from agentflows.drafting.offline import OfflineEngine
from agentflows.generate import build_request, run_generation
from evalcore.llm import ModelUnavailableError, Usage
from evalcore.llm.errors import failure_kind

BANK = EXAMPLES / "bank"
MODEL_ENV = ("CASEGEN_MODEL", "OPENAI_API_KEY", "OPENAI_BASE_URL")

openai_stub = stub_fixture(require_key="right-key")


def closed_port_url() -> str:
    """A loopback URL nothing listens on (the port was just free)."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    return f"http://127.0.0.1:{port}/v1"


@pytest.fixture
def model_env(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> pytest.MonkeyPatch:
    for name in MODEL_ENV:
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("NO_PROXY", "127.0.0.1,localhost")
    monkeypatch.chdir(tmp_path)
    return monkeypatch


def test_unreachable_endpoint_stops_generate_with_one_error(
    model_env: pytest.MonkeyPatch, tmp_path: Path, run_cli
) -> None:
    model_env.setenv("OPENAI_BASE_URL", closed_port_url())
    model_env.setenv("OPENAI_API_KEY", "k")
    started = time.monotonic()
    code, out, err = run_cli(
        *("generate", "card_replace", "--project", BANK, "--model", "m"),
        *("--out", tmp_path / "out", "--json"),
    )
    elapsed = time.monotonic() - started
    payload = json.loads(out)
    assert code == 3 and payload["exit_code"] == 3
    assert "unreachable" in payload["error"] and "127.0.0.1" in payload["error"]
    assert "--model offline" in payload["hint"] and "casegen doctor" in payload["hint"]
    assert elapsed < 10, f"took {elapsed:.1f}s"
    assert not (tmp_path / "out").exists()

    code, out, err = run_cli("generate", "card_replace", "--project", BANK, "--model", "m")
    assert code == 3 and out == ""
    assert err.count("unreachable") == 1 and "--model offline" in err


def test_refused_key_stops_generate_before_any_model_call(
    model_env: pytest.MonkeyPatch, tmp_path: Path, run_cli, openai_stub
) -> None:
    model_env.setenv("OPENAI_BASE_URL", openai_stub.base_url)
    model_env.setenv("OPENAI_API_KEY", "wrong-key")
    code, out, _ = run_cli(
        *("generate", "card_replace", "--project", BANK, "--model", "m"),
        *("--out", tmp_path / "out", "--json"),
    )
    payload = json.loads(out)
    assert code == 3
    assert "refused the API key" in payload["error"] and "401" in payload["error"]
    assert openai_stub.requests == []  # no draft was even attempted


# --- an outage in the middle of a run ------------------------------------------------------


def connection_error() -> Exception:
    request = httpx.Request("POST", "http://127.0.0.1:9/v1/chat/completions")
    cause = openai.APIConnectionError(request=request)
    error = ModelUnavailableError("did not answer after 4 attempts", usage=Usage(calls=0))
    error.__cause__ = cause
    return error


def timeout_error() -> Exception:
    request = httpx.Request("POST", "http://127.0.0.1:9/v1/chat/completions")
    error = ModelUnavailableError("no answer within 60s")
    error.__cause__ = openai.APITimeoutError(request=request)
    return error


class FlakyEngine(OfflineEngine):
    """The offline drafter under a model's name; `fail(n, behaviour_id)` may raise."""

    name = "llm:flaky"
    model = "flaky"

    def __init__(self, fail: Any = None) -> None:
        super().__init__()
        self.fail = fail
        self.drafted: list[str] = []

    async def refine_plan(self, project, dialect, source, behaviors, direction):  # type: ignore[no-untyped-def]
        return behaviors, Usage()

    async def draft(self, ctx: DraftContext) -> DraftResult:
        self.drafted.append(ctx.behavior.id)
        error = self.fail(len(self.drafted), ctx.behavior.id) if self.fail else None
        if error is not None:
            raise error
        return await super().draft(ctx)


def test_failure_kinds_follow_the_cause_chain() -> None:
    assert failure_kind(connection_error()) == "unreachable"
    assert failure_kind(timeout_error()) == "transient"
    assert failure_kind(ValueError("bad")) is None


def test_an_outage_halts_the_drafts_and_resume_drafts_them_again(tmp_path: Path) -> None:
    store = tmp_path / "checkpoints.sqlite"
    request = build_request(["card_replace"], project=BANK, out=str(tmp_path / "out"))
    request = request.model_copy(update={"concurrency": 1})
    down = FlakyEngine(fail=lambda n, _id: connection_error() if n >= 2 else None)
    run_ids: list[str] = []
    report = asyncio.run(
        run_generation(request, engine=down, checkpoints=store, on_start=run_ids.append)
    )
    # the behaviours planned only to be reported are dropped before any engine drafts them
    unwritten = [d for d in report["dropped"] if d["reason"].startswith("not written:")]
    planned = report["planned"] - len(unwritten)
    assert planned > 3
    assert len(down.drafted) == 2  # one draft, one failure, then nothing more was attempted
    kinds = [f["error_kind"] for f in report["failed"]]
    assert kinds == ["unreachable"] + ["halted"] * (planned - 2)
    assert report["halted"]["kind"] == "unreachable"
    assert report["halted"]["not_drafted"] == planned - 1
    assert report["halted"]["resume"] == f"casegen generate --resume {run_ids[0]}"

    back = FlakyEngine()
    resumed = asyncio.run(run_generation(None, resume=run_ids[0], engine=back, checkpoints=store))
    assert len(back.drafted) == planned - 1  # the one drafted case is kept, not redrafted
    assert resumed["failed"] == [] and resumed["halted"] is None
    assert (
        len(resumed["cases"]) + len(resumed["dropped"]) + resumed["duplicates_dropped"]
        == (report["planned"])
    )


def test_a_timeout_fails_one_case_only_and_resume_redrafts_it(tmp_path: Path) -> None:
    store = tmp_path / "checkpoints.sqlite"
    request = build_request(["card_replace"], project=BANK, out=str(tmp_path / "out"))
    request = request.model_copy(update={"concurrency": 1})
    slow_one = FlakyEngine(fail=lambda n, _id: timeout_error() if n == 1 else None)
    run_ids: list[str] = []
    report = asyncio.run(
        run_generation(request, engine=slow_one, checkpoints=store, on_start=run_ids.append)
    )
    assert report["halted"] is None
    assert [f["error_kind"] for f in report["failed"]] == ["transient"]
    unwritten = [d for d in report["dropped"] if d["reason"].startswith("not written:")]
    assert len(slow_one.drafted) == report["planned"] - len(unwritten)
    failed_id = report["failed"][0]["behavior"]

    back = FlakyEngine()
    resumed = asyncio.run(run_generation(None, resume=run_ids[0], engine=back, checkpoints=store))
    assert back.drafted == [failed_id]
    assert resumed["failed"] == []

    again = FlakyEngine()
    asyncio.run(run_generation(None, resume=run_ids[0], engine=again, checkpoints=store))
    assert again.drafted == []  # a finished run with nothing left to draft
