"""Structured model calls: usage and cost, cache, retries, invalid output, configuration."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import openai
import pytest
from langchain_core.language_models.fake_chat_models import GenericFakeChatModel
from langchain_core.messages import AIMessage, BaseMessage
from langchain_core.outputs import ChatGeneration, ChatResult
from pydantic import BaseModel, SecretStr
from stub_openai import (
    StubOpenAI,
    invalid_json,
    ok,
    rate_limited,
    server_error,
    slow,
    stub_fixture,
)

from evalcore.errors import ConfigError
from evalcore.llm import (
    InvalidOutputError,
    ModelConfig,
    ModelRequestError,
    ModelUnavailableError,
    ResponseCache,
    make_chat_model,
    resolve_model_config,
    structured_call,
)
from evalcore.llm.config import PLACEHOLDER_API_KEY

openai_stub = stub_fixture()

MESSAGES = [("system", "You answer with a thing."), ("user", "One thing, please.")]


class Thing(BaseModel):
    """A thing with a count."""

    name: str
    count: int


# --- a scripted fake chat model -----------------------------------------------------------


class Pause:
    """A scripted answer that never arrives in time."""

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds


class ScriptedChat(GenericFakeChatModel):
    """Answers with scripted tool calls, raises scripted exceptions, or stalls."""

    calls: int = 0

    def bind_tools(self, tools: Any, **kwargs: Any) -> ScriptedChat:
        return self  # the scripted answers already are tool calls

    def _next(self) -> AIMessage:
        self.calls += 1
        item = next(self.messages)
        if isinstance(item, BaseException):
            raise item
        return item if isinstance(item, AIMessage) else AIMessage(content=item)

    def _generate(
        self, messages: list[BaseMessage], stop: Any = None, run_manager: Any = None, **kwargs: Any
    ) -> ChatResult:
        return ChatResult(generations=[ChatGeneration(message=self._next())])

    async def _agenerate(
        self, messages: list[BaseMessage], stop: Any = None, run_manager: Any = None, **kwargs: Any
    ) -> ChatResult:
        item = next(self.messages)
        if isinstance(item, Pause):
            self.calls += 1
            await asyncio.sleep(item.seconds)
            raise AssertionError("the call should have been cut off")
        self.messages = _chain([item], self.messages)
        return self._generate(messages)


def _chain(first: list[Any], rest: Iterator[Any]) -> Iterator[Any]:
    yield from first
    yield from rest


def answer(args: Any, *, tokens: tuple[int, int] = (100, 20)) -> AIMessage:
    """A tool-call answer with usage metadata."""
    return AIMessage(
        content="",
        tool_calls=[{"name": "Thing", "args": args, "id": "call_1", "type": "tool_call"}],
        usage_metadata={
            "input_tokens": tokens[0],
            "output_tokens": tokens[1],
            "total_tokens": sum(tokens),
        },
    )


def bad_json(text: str = '{"name": "x", "count": ') -> AIMessage:
    """A tool call whose arguments are not JSON."""
    return AIMessage(
        content="",
        invalid_tool_calls=[
            {
                "name": "Thing",
                "args": text,
                "id": "call_1",
                "error": "bad",
                "type": "invalid_tool_call",
            }
        ],
        additional_kwargs={
            "tool_calls": [
                {
                    "id": "call_1",
                    "type": "function",
                    "function": {"name": "Thing", "arguments": text},
                }
            ]
        },
        usage_metadata={"input_tokens": 100, "output_tokens": 20, "total_tokens": 120},
    )


def chat(*items: Any) -> ScriptedChat:
    return ScriptedChat(messages=iter(items))


def config(**overrides: Any) -> ModelConfig:
    values: dict[str, Any] = {
        "model": "test-model",
        "api_key": SecretStr("k"),
        "timeout_s": 5.0,
        "max_retries": 3,
        "retry_base_delay_s": 0.001,
        "retry_max_delay_s": 0.5,
        "structured_output": "function_calling",
    }
    return ModelConfig(**(values | overrides))


def _http_error(
    cls: type[openai.APIStatusError], status: int, headers: dict[str, str] | None = None
) -> openai.APIStatusError:
    request = httpx.Request("POST", "http://127.0.0.1/v1/chat/completions")
    response = httpx.Response(status, headers=headers or {}, request=request)
    return cls(f"HTTP {status}", response=response, body=None)


class SleepLog:
    def __init__(self) -> None:
        self.delays: list[float] = []

    async def __call__(self, seconds: float) -> None:
        self.delays.append(seconds)


# --- usage and cost -----------------------------------------------------------------------


async def test_usage_and_cost_from_token_counts() -> None:
    model = chat(answer({"name": "a", "count": 1}, tokens=(1000, 500)))
    cfg = config(input_cost_per_mtok=2.0, output_cost_per_mtok=8.0)
    result = await structured_call(model, MESSAGES, Thing, config=cfg)
    assert result.value == Thing(name="a", count=1)
    assert result.usage.model_dump() == {
        "calls": 1,
        "input_tokens": 1000,
        "output_tokens": 500,
        "cost_usd": 0.006,
        "cache_hits": 0,
    }
    assert json.loads(result.raw_text) == {"name": "a", "count": 1}


async def test_no_price_means_no_cost() -> None:
    result = await structured_call(
        chat(answer({"name": "a", "count": 1})), MESSAGES, Thing, config=config()
    )
    assert result.usage.cost_usd == 0.0 and result.usage.input_tokens == 100


async def test_failed_attempts_are_counted_in_usage() -> None:
    model = chat(bad_json(), answer({"name": "a", "count": 1}))
    result = await structured_call(model, MESSAGES, Thing, config=config())
    assert result.usage.calls == 2 and result.usage.input_tokens == 200
    assert result.attempts == 2


# --- cache --------------------------------------------------------------------------------


async def test_second_identical_call_is_a_cache_hit(tmp_path: Path) -> None:
    cache = ResponseCache(tmp_path / "cache")
    model = chat(answer({"name": "a", "count": 1}), answer({"name": "b", "count": 2}))
    cfg = config(input_cost_per_mtok=1.0)
    first = await structured_call(model, MESSAGES, Thing, config=cfg, cache=cache)
    second = await structured_call(model, MESSAGES, Thing, config=cfg, cache=cache)
    assert model.calls == 1
    assert second.cached and second.value == first.value
    assert second.usage.model_dump() == {
        "calls": 0,
        "input_tokens": 0,
        "output_tokens": 0,
        "cost_usd": 0.0,
        "cache_hits": 1,
    }
    assert len(list((tmp_path / "cache").rglob("*.json"))) == 1


class Call(BaseModel):
    """A tool call whose arguments are a free map (key order is the model's)."""

    tool: str
    arguments: dict[str, Any]


async def test_a_cached_answer_keeps_the_key_order_the_model_wrote(tmp_path: Path) -> None:
    cache = ResponseCache(tmp_path)
    args = {"tool": "order", "arguments": {"shipping": "express", "reason": "lost", "card": "4821"}}
    model = chat(AIMessage(content="", tool_calls=[{**answer(args).tool_calls[0], "name": "Call"}]))
    first = await structured_call(model, MESSAGES, Call, config=config(), cache=cache)
    second = await structured_call(model, MESSAGES, Call, config=config(), cache=cache)
    assert second.cached and model.calls == 1
    assert list(second.value.arguments) == ["shipping", "reason", "card"]
    assert second.value.model_dump_json() == first.value.model_dump_json()


async def test_a_different_prompt_misses_the_cache(tmp_path: Path) -> None:
    cache = ResponseCache(tmp_path)
    model = chat(answer({"name": "a", "count": 1}), answer({"name": "b", "count": 2}))
    await structured_call(model, MESSAGES, Thing, config=config(), cache=cache)
    other = await structured_call(
        model, [("user", "Another.")], Thing, config=config(), cache=cache
    )
    assert other.value.name == "b" and not other.cached


async def test_no_cache_bypasses_reads_and_writes(tmp_path: Path) -> None:
    cache = ResponseCache(tmp_path)
    model = chat(
        answer({"name": "a", "count": 1}),
        answer({"name": "b", "count": 2}),
        answer({"name": "c", "count": 3}),
    )
    await structured_call(model, MESSAGES, Thing, config=config(), cache=cache)
    fresh = await structured_call(
        model, MESSAGES, Thing, config=config(), cache=cache, no_cache=True
    )
    assert fresh.value.name == "b" and fresh.usage.calls == 1
    again = await structured_call(model, MESSAGES, Thing, config=config(), cache=cache)
    assert again.value.name == "a" and again.cached  # the bypassed answer was not stored


async def test_a_damaged_cache_entry_is_a_miss(tmp_path: Path) -> None:
    cache = ResponseCache(tmp_path)
    model = chat(answer({"name": "a", "count": 1}), answer({"name": "b", "count": 2}))
    await structured_call(model, MESSAGES, Thing, config=config(), cache=cache)
    entry = next(tmp_path.rglob("*.json"))
    entry.write_text("{not json", encoding="utf-8")
    result = await structured_call(model, MESSAGES, Thing, config=config(), cache=cache)
    assert result.value.name == "b"
    assert json.loads(entry.read_text("utf-8"))["value"] == {"name": "b", "count": 2}


# --- retries ------------------------------------------------------------------------------


async def test_transient_errors_are_retried_with_backoff() -> None:
    request = httpx.Request("POST", "http://127.0.0.1/v1/chat/completions")
    model = chat(
        _http_error(openai.RateLimitError, 429, {"retry-after": "0.25"}),
        _http_error(openai.InternalServerError, 500),
        openai.APITimeoutError(request=request),
        answer({"name": "a", "count": 1}),
    )
    sleep = SleepLog()
    result = await structured_call(model, MESSAGES, Thing, config=config(), sleep=sleep)
    assert result.value.name == "a" and model.calls == 4
    assert len(sleep.delays) == 3
    assert sleep.delays[0] >= 0.25  # Retry-After is honoured
    assert all(d <= 0.5 for d in sleep.delays)  # and every delay is capped


async def test_a_call_that_hangs_is_cut_off_and_retried() -> None:
    model = chat(Pause(5), answer({"name": "a", "count": 1}))
    result = await structured_call(model, MESSAGES, Thing, config=config(timeout_s=0.05))
    assert result.value.name == "a" and model.calls == 2


async def test_transient_errors_beyond_the_budget_raise() -> None:
    model = chat(*[_http_error(openai.InternalServerError, 503) for _ in range(3)])
    with pytest.raises(ModelUnavailableError) as caught:
        await structured_call(model, MESSAGES, Thing, config=config(max_retries=2))
    assert "after 3 attempts" in str(caught.value) and "HTTP 503" in str(caught.value)
    assert model.calls == 3


async def test_rejected_request_is_not_retried() -> None:
    model = chat(_http_error(openai.AuthenticationError, 401), answer({"name": "a", "count": 1}))
    with pytest.raises(ModelRequestError, match=r"HTTP 401.*API key"):
        await structured_call(model, MESSAGES, Thing, config=config())
    assert model.calls == 1


async def test_invalid_output_is_retried_then_accepted() -> None:
    model = chat(bad_json(), answer({"name": "a"}), answer({"name": "a", "count": 1}))
    result = await structured_call(model, MESSAGES, Thing, config=config())
    assert result.value.count == 1 and result.attempts == 3


async def test_persistent_invalid_output_raises_a_clear_error() -> None:
    model = chat(*[bad_json('{"name": "cut') for _ in range(4)])
    with pytest.raises(InvalidOutputError) as caught:
        await structured_call(model, MESSAGES, Thing, config=config(max_retries=3))
    error = caught.value
    assert "invalid Thing output 4 times" in str(error)
    assert "not valid JSON" in error.problem
    assert error.raw_text == '{"name": "cut'
    assert error.usage.calls == 4 and error.attempts == 4


async def test_answers_that_do_not_fit_the_schema_are_reported() -> None:
    model = chat(*[answer({"name": "a", "count": "many"}) for _ in range(2)])
    with pytest.raises(InvalidOutputError, match="does not fit Thing: count"):
        await structured_call(model, MESSAGES, Thing, config=config(max_retries=1))


async def test_invalid_output_and_transient_errors_have_separate_budgets() -> None:
    model = chat(
        bad_json(),
        _http_error(openai.InternalServerError, 500),
        bad_json(),
        _http_error(openai.RateLimitError, 429),
        answer({"name": "a", "count": 1}),
    )
    result = await structured_call(model, MESSAGES, Thing, config=config(max_retries=2))
    assert result.value.name == "a"


# --- the HTTP path against the stub server ------------------------------------------------


def stub_config(stub: StubOpenAI, **overrides: Any) -> ModelConfig:
    values = {"base_url": stub.base_url, "timeout_s": 1.0, "structured_output": "json_schema"}
    return config(**(values | overrides))


@pytest.mark.parametrize("method", ["json_schema", "function_calling"])
async def test_http_faults_then_success(openai_stub: StubOpenAI, method: str) -> None:
    openai_stub.script(
        rate_limited(retry_after=0),
        server_error(500),
        slow(3, {"name": "late", "count": 0}),
        invalid_json(),
        ok({"name": "a", "count": 1}, input_tokens=11, output_tokens=7),
    )
    cfg = stub_config(openai_stub, timeout_s=0.3, input_cost_per_mtok=1e6)
    result = await structured_call(make_chat_model(cfg), MESSAGES, Thing, config=cfg, method=method)
    assert result.value == Thing(name="a", count=1)
    assert result.usage.calls == 2  # the invalid answer and the good one
    assert result.usage.input_tokens == 100 + 11 and result.usage.cost_usd == 111.0
    assert len(openai_stub.requests) == 5
    expected_mode = "tools" if method == "function_calling" else "json_schema"
    assert {r.mode for r in openai_stub.requests} == {expected_mode}
    assert openai_stub.requests[0].schema_name == "Thing"
    assert openai_stub.requests[0].schema["required"] == ["name", "count"]


async def test_partial_json_is_not_completed(openai_stub: StubOpenAI) -> None:
    """A cut-off answer must not pass as a shorter valid one."""
    openai_stub.script(
        invalid_json('{"name": "a", "count": 1, "tags": ["x", "y'),
        ok({"name": "whole", "count": 2}),
    )
    cfg = stub_config(openai_stub)
    result = await structured_call(make_chat_model(cfg), MESSAGES, Thing, config=cfg)
    assert result.value.name == "whole" and result.usage.calls == 2


async def test_fenced_json_content_is_accepted(openai_stub: StubOpenAI) -> None:
    openai_stub.script(invalid_json('```json\n{"name": "a", "count": 1}\n```'))
    cfg = stub_config(openai_stub)
    result = await structured_call(make_chat_model(cfg), MESSAGES, Thing, config=cfg)
    assert result.value == Thing(name="a", count=1)


async def test_an_answer_cut_at_the_token_limit_is_invalid_output(openai_stub: StubOpenAI) -> None:
    openai_stub.handler = lambda request: ok({"name": "a", "count": 1}, finish_reason="length")
    cfg = stub_config(openai_stub, max_retries=1)
    with pytest.raises(InvalidOutputError, match="cut off at the output token limit"):
        await structured_call(make_chat_model(cfg), MESSAGES, Thing, config=cfg)
    assert len(openai_stub.requests) == 2


async def test_http_persistent_rate_limit(openai_stub: StubOpenAI) -> None:
    openai_stub.handler = lambda request: rate_limited(retry_after=0)
    cfg = stub_config(openai_stub, max_retries=2)
    with pytest.raises(ModelUnavailableError, match=r"rate limited \(HTTP 429\)"):
        await structured_call(make_chat_model(cfg), MESSAGES, Thing, config=cfg)
    assert len(openai_stub.requests) == 3


# --- configuration ------------------------------------------------------------------------

ENV = (
    "CASEGEN_MODEL",
    "CASEGEN_JUDGE_MODEL",
    "CASEGEN_SIMULATOR_MODEL",
    "OPENAI_BASE_URL",
    "OPENAI_API_KEY",
    "MY_KEY",
)


@pytest.fixture
def clean_env(monkeypatch: pytest.MonkeyPatch) -> pytest.MonkeyPatch:
    for name in ENV:
        monkeypatch.delenv(name, raising=False)
    return monkeypatch


def test_no_model_anywhere_means_offline(tmp_path: Path, clean_env: pytest.MonkeyPatch) -> None:
    assert resolve_model_config(None, start=tmp_path) is None


def test_explicit_model_wins_and_offline_means_none(
    tmp_path: Path, clean_env: pytest.MonkeyPatch
) -> None:
    clean_env.setenv("CASEGEN_MODEL", "from-env")
    (tmp_path / "casegen.toml").write_text('model = "from-file"\n', encoding="utf-8")
    assert resolve_model_config("explicit", start=tmp_path).model == "explicit"
    assert resolve_model_config("offline", start=tmp_path) is None


def test_environment_beats_the_settings_file(tmp_path: Path, clean_env: pytest.MonkeyPatch) -> None:
    (tmp_path / "casegen.toml").write_text(
        'model = "file-model"\njudge_model = "file-judge"\n', encoding="utf-8"
    )
    assert resolve_model_config(None, start=tmp_path).model == "file-model"
    assert resolve_model_config(None, start=tmp_path, role="judge").model == "file-judge"
    clean_env.setenv("CASEGEN_MODEL", "env-model")
    assert resolve_model_config(None, start=tmp_path).model == "env-model"
    assert resolve_model_config(None, start=tmp_path, role="judge").model == "env-model"
    clean_env.setenv("CASEGEN_JUDGE_MODEL", "env-judge")
    assert resolve_model_config(None, start=tmp_path, role="judge").model == "env-judge"
    assert resolve_model_config(None, start=tmp_path, role="simulator").model == "env-model"
    clean_env.setenv("CASEGEN_MODEL", "offline")
    assert resolve_model_config(None, start=tmp_path) is None


def test_pyproject_tool_casegen_at_or_above_start(
    tmp_path: Path, clean_env: pytest.MonkeyPatch
) -> None:
    (tmp_path / "pyproject.toml").write_text(
        '[tool.casegen]\nmodel = "m"\nsimulator_model = "sim"\nbase_url = '
        '"http://localhost:11434/v1"\ntimeout_s = 12\nmax_retries = 1\n'
        "input_cost_per_mtok = 0.5\noutput_cost_per_mtok = 1.5\n",
        encoding="utf-8",
    )
    nested = tmp_path / "a" / "b"
    nested.mkdir(parents=True)
    (tmp_path / "a" / "pyproject.toml").write_text("[project]\nname = 'x'\n", encoding="utf-8")
    resolved = resolve_model_config(None, start=nested)
    assert resolved is not None
    assert (resolved.model, resolved.base_url, resolved.timeout_s, resolved.max_retries) == (
        "m",
        "http://localhost:11434/v1",
        12.0,
        1,
    )
    assert (resolved.input_cost_per_mtok, resolved.output_cost_per_mtok) == (0.5, 1.5)
    # a local endpoint without a key gets a placeholder key
    assert resolved.api_key is not None
    assert resolved.api_key.get_secret_value() == PLACEHOLDER_API_KEY
    assert resolve_model_config(None, start=nested, role="simulator").model == "sim"


def test_casegen_toml_wins_over_pyproject_in_the_same_folder(
    tmp_path: Path, clean_env: pytest.MonkeyPatch
) -> None:
    (tmp_path / "pyproject.toml").write_text('[tool.casegen]\nmodel = "py"\n', encoding="utf-8")
    (tmp_path / "casegen.toml").write_text('model = "toml"\n', encoding="utf-8")
    assert resolve_model_config(None, start=tmp_path).model == "toml"


def test_key_and_base_url_from_the_environment(
    tmp_path: Path, clean_env: pytest.MonkeyPatch
) -> None:
    (tmp_path / "casegen.toml").write_text(
        'model = "m"\napi_key_env = "MY_KEY"\n', encoding="utf-8"
    )
    clean_env.setenv("OPENAI_BASE_URL", "https://api.openai.com/v1")
    resolved = resolve_model_config(None, start=tmp_path)
    assert resolved.base_url == "https://api.openai.com/v1" and resolved.api_key is None
    with pytest.raises(ConfigError, match="no API key"):
        make_chat_model(resolved)
    clean_env.setenv("MY_KEY", "sk-test")
    assert resolve_model_config(None, start=tmp_path).api_key.get_secret_value() == "sk-test"


def test_unknown_setting_is_an_error_with_a_suggestion(
    tmp_path: Path, clean_env: pytest.MonkeyPatch
) -> None:
    (tmp_path / "casegen.toml").write_text('model = "m"\ntimeout = 5\n', encoding="utf-8")
    with pytest.raises(ConfigError) as caught:
        resolve_model_config(None, start=tmp_path)
    assert "unknown model setting 'timeout'" in str(caught.value)
    assert "timeout_s" in str(caught.value)


def test_offline_ignores_a_broken_settings_file(
    tmp_path: Path, clean_env: pytest.MonkeyPatch
) -> None:
    (tmp_path / "casegen.toml").write_text("model = [unclosed\n", encoding="utf-8")
    assert resolve_model_config("offline", start=tmp_path) is None
    with pytest.raises(ConfigError, match="cannot read model settings"):
        resolve_model_config(None, start=tmp_path)


def test_chat_model_has_our_retries_only() -> None:
    chat_model = make_chat_model(config(base_url="http://127.0.0.1:9/v1", timeout_s=7))
    assert chat_model.max_retries == 0
    assert chat_model.request_timeout == 7
    assert chat_model.model_name == "test-model"
