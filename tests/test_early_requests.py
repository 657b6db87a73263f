"""A model run's first drafts go out before the chat client stack is imported
(`evalcore.llm.early`, `agentflows.generate._early`): the early request is the one the chat
client would send, its answer is taken by exactly that call, an answer the client would not
return as is is asked for again, and a run writes the same cases with the same requests."""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
import textwrap
import time
from pathlib import Path
from typing import Any

import pytest
from langchain_core.messages import convert_to_messages
from pydantic import BaseModel, SecretStr
from stub_openai import RecordedRequest, StubOpenAI, ok, server_error, stub_fixture

from agentflows.drafting.llm import _mantle
from agentflows.generate import build_request, run_generation
from agentflows.generate.context import GenerateRequest, HeadStart
from evalcore.definitions import load_project
from evalcore.llm import ModelConfig, _methods, early, make_chat_model, structured_call

REPO = Path(__file__).resolve().parents[1]
BANK = REPO / "examples" / "bank"
MESSAGES = [("system", "You write titles."), ("user", "A title for a lost card, please.")]

openai_stub = stub_fixture()


class Words(BaseModel):
    """A title."""

    title: str


@pytest.fixture(autouse=True)
def _nothing_early_left() -> Any:
    early.forget()
    yield
    early.forget()


def _config(stub: StubOpenAI, **extra: Any) -> ModelConfig:
    return ModelConfig(
        model="stub-model",
        api_key=SecretStr(stub.api_key),
        base_url=stub.base_url,
        max_retries=1,
        retry_base_delay_s=0.0,
        **extra,
    )


def _ask(config: ModelConfig, kind: str = "draft") -> Any:
    chat = make_chat_model(config)
    return asyncio.run(structured_call(chat, MESSAGES, Words, config=config, kind=kind))


def _send(config: ModelConfig) -> None:
    spec = early.output_spec_of(Words, False)
    body = early.wire_body(config, MESSAGES, spec, max_tokens=config.max_tokens_for("draft"))
    assert body is not None and early.send(config, body)


@pytest.mark.parametrize("temperature", [None, 0.3])
def test_the_early_body_is_the_one_the_chat_client_sends(
    openai_stub: StubOpenAI, temperature: float | None
) -> None:
    openai_stub.handler = lambda request: ok({"title": "Lost card"})
    config = _config(openai_stub, temperature=temperature)
    _ask(config)
    spec = early.output_spec_of(Words, False)
    body = early.wire_body(config, MESSAGES, spec, max_tokens=config.max_tokens_for("draft"))
    assert body == openai_stub.requests[0].body


def test_the_openai_api_gets_its_own_answer_limit_field() -> None:
    """The OpenAI API (no stub can stand for it) is sent `max_completion_tokens`, as the
    chat client's own request payload says."""
    config = ModelConfig(model="gpt-4.1-mini", api_key=SecretStr("sk-test"))
    chat = make_chat_model(config)
    spec = early.output_spec_of(Words, False)
    bound = _methods.bind(chat, spec, "json_schema", strict=False, max_tokens=700, temperature=None)
    payload = chat._get_request_payload(convert_to_messages(MESSAGES), **bound.kwargs)
    assert early.wire_body(config, MESSAGES, spec, max_tokens=700) == {"stream": False, **payload}


def test_an_early_answer_is_taken_by_the_identical_call_only(openai_stub: StubOpenAI) -> None:
    openai_stub.handler = lambda request: ok({"title": f"answer {len(openai_stub.requests)}"})
    config = _config(openai_stub)
    other = _ask(config, kind="judge")
    _send(config)
    _arrived(openai_stub, 2)
    assert early.pending() == 1  # another answer limit is another request: not taken
    taken = _ask(config)
    assert len(openai_stub.requests) == 2 and early.pending() == 0
    assert other.value.title == "answer 1" and taken.value.title == "answer 2"
    assert taken.usage.calls == 1 and taken.usage.input_tokens == 100


def _arrived(stub: StubOpenAI, count: int) -> None:
    """Wait until the stub has received `count` requests (an early one is on a thread)."""
    deadline = time.monotonic() + 10
    while len(stub.requests) < count and time.monotonic() < deadline:
        time.sleep(0.01)
    assert len(stub.requests) == count


@pytest.mark.parametrize(
    "first",
    [server_error(500), ok({"title": "cut"}, finish_reason="length")],
    ids=["error status", "cut off"],
)
def test_an_early_answer_the_client_would_not_return_is_asked_again(
    openai_stub: StubOpenAI, first: Any
) -> None:
    openai_stub.script(first)
    openai_stub.handler = lambda request: ok({"title": "asked again"})
    config = _config(openai_stub)
    _send(config)
    result = _ask(config)
    assert result.value.title == "asked again" and len(openai_stub.requests) == 2
    assert result.usage.calls == 1


def test_nothing_is_sent_early_where_the_client_would_send_another_request(
    openai_stub: StubOpenAI, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert early.eligible(_config(openai_stub))
    assert not early.eligible(_config(openai_stub, rpm=60))  # the budget paces each call
    for model in ("o3-mini", "gpt-5"):  # the client rewrites their requests
        assert not early.eligible(ModelConfig(model=model, api_key=SecretStr("sk-test")))
    monkeypatch.setenv("OPENAI_PROJECT", "proj_1")
    assert not early.eligible(_config(openai_stub))


def _words(request: RecordedRequest) -> dict[str, Any]:
    text = request.text.split("<Behavior>", 1)[1].split("</Behavior>", 1)[0]
    behavior = json.loads(text[text.index("{") : text.rindex("}") + 1])
    return {
        "name": behavior["title"],
        "simulation_context": (
            f"You are a customer ({behavior['id']}). {behavior['description']}\n"
            '1. To start, say: "I need a new card"\n2. Stop once the agent answers.'
        ),
        "criteria": ["The agent does not read out the internal card id"],
    }


#: `casegen generate` in a fresh interpreter, noting what was imported at its first early send.
_RUN = textwrap.dedent(
    """
    import json, sys
    from evalcore.llm import early
    seen = []
    real = early.send
    def send(config, body):
        if not seen:
            # (and what the run loads only to review its drafts)
            heavy = ("langchain_core", "langgraph", "langsmith", "openai", "agentflows.review")
            seen.append(sorted(name for name in heavy if name in sys.modules))
        return real(config, body)
    early.send = send
    from agentflows.cli import main
    code = main(sys.argv[1:])
    print(json.dumps({"code": code, "heavy": seen}), file=sys.stderr)
    """
)


def _generate(stub: StubOpenAI, out: Path, cwd: Path, *, at_once: bool) -> dict[str, Any]:
    # ten slots take all of the skill's first drafts, past one whose planned case asserts
    # what an earlier one's does (a twin, never drafted: nothing is sent early for it)
    argv = ["generate", "dispute_charge", "--project", str(BANK), "--model", "stub-model"]
    argv += ["--out", str(out), "--no-cache", "--no-verify", "--concurrency", "10", "--json"]
    env = {k: v for k, v in os.environ.items() if not k.startswith("CASEGEN_")}
    env.update(PYTHONPATH=str(REPO), OPENAI_BASE_URL=stub.base_url, OPENAI_API_KEY=stub.api_key)
    if not at_once:
        env["OPENAI_PROJECT"] = "proj_1"  # a client header: nothing is sent early
    done = subprocess.run(
        [sys.executable, "-c", _RUN, *argv], cwd=cwd, env=env, capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr[-2000:]
    return json.loads(done.stderr.strip().splitlines()[-1])


def test_a_run_sends_its_first_drafts_before_langchain_and_writes_the_same_cases(
    openai_stub: StubOpenAI, tmp_path: Path
) -> None:
    openai_stub.handler = lambda request: ok(_words(request))
    late = _generate(openai_stub, tmp_path / "late", tmp_path, at_once=False)
    late_requests = sorted(json.dumps(r.body, sort_keys=True) for r in openai_stub.requests)
    openai_stub.requests.clear()
    first = _generate(openai_stub, tmp_path / "early", tmp_path, at_once=True)
    assert late == {"code": 0, "heavy": []}  # no early send at all
    assert first == {"code": 0, "heavy": [[]]}  # sent before any of the client stack
    assert sorted(json.dumps(r.body, sort_keys=True) for r in openai_stub.requests) == (
        late_requests
    )
    written = sorted(p.relative_to(tmp_path / "late") for p in (tmp_path / "late").rglob("*.yml"))
    assert written
    for path in written:
        late_text = (tmp_path / "late" / path).read_text("utf-8")
        assert (tmp_path / "early" / path).read_text("utf-8") == late_text


def test_the_flow_takes_the_planned_cases_of_the_early_drafts(
    openai_stub: StubOpenAI, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The cases planned for the early drafts (and what each asserts, for the look back
    at twins) are the flow's: no behaviour is planned twice, and every early request's
    answer is taken (none is asked again)."""
    openai_stub.handler = lambda request: ok(_words(request))
    for name in [k for k in os.environ if k.startswith("CASEGEN_")] + ["OPENAI_PROJECT"]:
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("OPENAI_BASE_URL", openai_stub.base_url)
    monkeypatch.setenv("OPENAI_API_KEY", openai_stub.api_key)
    monkeypatch.chdir(tmp_path)
    planned: list[str] = []
    real_case, real_send = _mantle.planned_case, early.send
    monkeypatch.setattr(
        _mantle, "planned_case", lambda ctx: planned.append(ctx.behavior.id) or real_case(ctx)
    )
    sent: list[dict[str, Any]] = []
    monkeypatch.setattr(
        early, "send", lambda config, body: sent.append(body) or real_send(config, body)
    )
    request = build_request(
        ["dispute_charge"],
        project=BANK,
        out=str(tmp_path / "out"),
        model="stub-model",
        verify=False,
        no_cache=True,
        concurrency=10,
    )
    report = asyncio.run(run_generation(request, checkpoints=tmp_path / "runs.sqlite"))
    assert sent and report["cases"]
    assert len(planned) == len(set(planned))  # one plan per case
    assert len(openai_stub.requests) == report["llm"]["calls"]


def test_the_head_start_answers_only_the_project_object_and_plan_it_was_kept_for() -> None:
    """What was planned before the flow is taken for that very project object and the
    same targets, dialect and direction: a project read again (an equal reading, another
    object) or another direction plans anew."""
    request = GenerateRequest(targets=["dispute_charge"], project=str(BANK), dialect="mantle")
    project, head = load_project(BANK), HeadStart(plans=[])
    request.keep_head(project, head)
    assert request.kept_head(project) is head
    assert request.kept_head(load_project(BANK)) is None
    request.direction = "outbound"
    assert request.kept_head(project) is None
