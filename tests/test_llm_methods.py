"""Structured output that fits the server: method detection, schemas, context, limits, retries.

Every test talks to the loopback stub server through the real OpenAI client, scripted to
behave like the servers met in practice (llama-cpp-python answers `json_schema` with HTTP
500; a server whose grammar converter crashes on tools; one that knows only text).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from pydantic import BaseModel
from stub_openai import RecordedRequest, Reply, StubOpenAI, ok, slow, stub_fixture, text

from agentflows.drafting import DraftContext
from agentflows.drafting.llm import LLMEngine
from agentflows.drafting.llm._mantle import MantleWords
from agentflows.drafting.llm._plan import RefinedPlan
from agentflows.planning import Behavior
from evalcore.definitions import load_project
from evalcore.dialects import get_dialect
from evalcore.errors import ConfigError
from evalcore.llm import (
    InvalidOutputError,
    ModelConfig,
    ModelRequestError,
    ModelUnavailableError,
    _methods,
    make_chat_model,
    resolve_model_config,
    structured_call,
)
from evalcore.llm._methods import extract_json
from evalcore.llm._schema import problems
from evalcore.llm.config import DEFAULT_MAX_TOKENS
from evalcore.llm.structured import output_spec

REPO = Path(__file__).resolve().parents[1]
openai_stub = stub_fixture()
MESSAGES = [("system", "You answer with a thing."), ("user", "One thing, please.")]


class Thing(BaseModel):
    """A thing with a count."""

    name: str
    count: int


@pytest.fixture(autouse=True)
def _fresh_detection() -> Iterator[None]:
    _methods.reset_detected()
    yield
    _methods.reset_detected()


def config_for(stub: StubOpenAI, **overrides: Any) -> ModelConfig:
    values: dict[str, Any] = {
        "model": "stub-model",
        "base_url": stub.base_url,
        "api_key": "stub-key",
        "timeout_s": 2.0,
        "max_retries": 2,
        "retry_base_delay_s": 0.001,
        "retry_max_delay_s": 0.01,
    }
    return ModelConfig(**(values | overrides))


async def call(stub: StubOpenAI, messages: Any = MESSAGES, schema: Any = Thing, **options: Any):
    config = options.pop("config", None) or config_for(stub)
    return await structured_call(
        make_chat_model(config), messages, schema, config=config, **options
    )


def refuse(*modes: str, status: int = 500, message: str | None = None):
    """A handler that refuses the given modes the way a server without them does."""

    def handler(request: RecordedRequest) -> Reply:
        if request.mode in modes:
            said = (
                message
                or {
                    "json_schema": "Invalid value for response_format.type: json_schema",
                    "tools": "Exception in grammar: could not convert the tool's schema",
                    "json": "response_format json_object is not supported",
                }[request.mode]
            )
            return Reply(status=status, error=said)
        if request.mode == "text":
            return text('Here you go:\n```json\n{"name": "lamp", "count": 2,}\n```')
        return ok({"name": "lamp", "count": 2})

    return handler


# --- method detection ---------------------------------------------------------------------


async def test_a_json_schema_refusal_moves_auto_to_tools_once_per_run(
    openai_stub: StubOpenAI,
) -> None:
    openai_stub.handler = refuse("json_schema")
    first = await call(openai_stub)
    second = await call(openai_stub)
    assert first.value == second.value == Thing(name="lamp", count=2)
    # one refused request, then tools for this and every later call: no retry spent
    assert [r.mode for r in openai_stub.requests] == ["json_schema", "tools", "tools"]
    assert first.usage.calls == 1
    # the schema is stated in the prompt too (the server may not enforce it)
    assert (
        '"count"' in openai_stub.requests[1].text and "tool `Thing`" in openai_stub.requests[1].text
    )


async def test_a_server_that_crashes_on_tools_gets_json_object_with_the_schema(
    openai_stub: StubOpenAI,
) -> None:
    openai_stub.handler = refuse("json_schema", "tools")
    result = await call(openai_stub)
    assert result.value == Thing(name="lamp", count=2)
    assert [r.mode for r in openai_stub.requests] == ["json_schema", "tools", "json"]
    json_request = openai_stub.requests[-1]
    assert json_request.schema["required"] == ["name", "count"]
    assert "JSON Schema" in json_request.text


async def test_a_text_only_server_gets_its_json_extracted_and_repaired(
    openai_stub: StubOpenAI,
) -> None:
    openai_stub.handler = refuse("json_schema", "tools", "json", status=400)
    result = await call(openai_stub)
    assert result.value == Thing(name="lamp", count=2)  # fence, prose, trailing comma
    assert openai_stub.requests[-1].mode == "text"


async def test_a_fixed_method_is_not_changed_behind_the_users_back(
    openai_stub: StubOpenAI,
) -> None:
    openai_stub.handler = refuse("json_schema")
    with pytest.raises(ModelUnavailableError, match="did not answer after 3 attempts"):
        await call(openai_stub, config=config_for(openai_stub, structured="json_schema"))
    assert {r.mode for r in openai_stub.requests} == {"json_schema"}


async def test_an_unrelated_server_error_is_still_transient(openai_stub: StubOpenAI) -> None:
    openai_stub.script(Reply(status=500, error="out of memory"), ok({"name": "a", "count": 1}))
    result = await call(openai_stub)
    assert result.value.count == 1
    assert [r.mode for r in openai_stub.requests] == ["json_schema", "json_schema"]


# --- retries that change something --------------------------------------------------------


async def test_an_invalid_answer_is_retried_with_its_finding_and_a_higher_temperature(
    openai_stub: StubOpenAI,
) -> None:
    openai_stub.script(ok({"name": "lamp"}), ok({"name": "lamp", "count": 3}))
    result = await call(openai_stub)
    assert result.value.count == 3 and result.usage.calls == 2
    first, second = openai_stub.requests
    assert first.body.get("temperature") == 0.0
    assert second.body["temperature"] > first.body["temperature"]
    assert "does not fit Thing: count: Field required" in second.text
    assert second.messages[-2]["role"] == "assistant"  # the answer it replaces
    assert second.text != first.text


async def test_a_time_out_is_retried_with_a_shorter_prompt(openai_stub: StubOpenAI) -> None:
    long = [("system", "Answer."), ("user", "<Definition>\n" + "word " * 6000 + "\n</Definition>")]
    openai_stub.script(slow(2.0), ok({"name": "a", "count": 1}))
    config = config_for(openai_stub, timeout_s=0.3, context=8192)
    result = await call(openai_stub, long, config=config)
    assert result.value.count == 1
    first, second = openai_stub.requests
    assert len(second.text) < len(first.text)
    assert "cut to fit" in second.text


async def test_persistent_invalid_output_carries_the_parsed_answer(openai_stub: StubOpenAI) -> None:
    openai_stub.handler = lambda request: ok({"name": "lamp"})
    with pytest.raises(InvalidOutputError) as caught:
        await call(openai_stub)
    assert caught.value.parsed == {"name": "lamp"}


# --- context and limits -------------------------------------------------------------------


async def test_a_prompt_is_cut_to_the_context_and_the_task_sections_kept(
    openai_stub: StubOpenAI,
) -> None:
    user = (
        "<Definition>\n" + "rule " * 5000 + "\n</Definition>\n\n"
        "<Case>\n" + '{"keep": "all of me"} ' * 50 + "\n</Case>"
    )
    openai_stub.handler = lambda request: ok({"name": "a", "count": 1})
    await call(
        openai_stub,
        [("system", "Fix it."), ("user", user)],
        kind="repair",
        config=config_for(openai_stub, context=4096),
    )
    sent = openai_stub.requests[0]
    assert sent.body["max_tokens"] == 1500  # the repair kind's default
    assert len(sent.text) / 3.2 < 4096 - 1500
    assert sent.text.count('{"keep": "all of me"}') == 50
    assert "cut to fit the model's context" in sent.text


async def test_instructions_that_cannot_fit_are_a_clear_error(openai_stub: StubOpenAI) -> None:
    with pytest.raises(ModelRequestError, match="more than the 2048-token context"):
        await call(
            openai_stub,
            [("system", "x " * 5000), ("user", "hi")],
            config=config_for(openai_stub, context=2048),
        )
    assert not openai_stub.requests


async def test_max_tokens_per_call_kind(openai_stub: StubOpenAI) -> None:
    openai_stub.handler = lambda request: ok({"name": "a", "count": 1})
    config = config_for(openai_stub, max_tokens={"judge": 123})
    await call(openai_stub, kind="judge", config=config)
    await call(openai_stub, kind="draft", config=config)
    assert [r.body["max_tokens"] for r in openai_stub.requests] == [123, 700]


# --- schemas ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "schema",
    [get_dialect(d).model for d in ("mantle", "anychat", "base44")] + [MantleWords, RefinedPlan],
    ids=lambda s: s.__name__,
)
def test_schemas_sent_are_grammar_safe(schema: type[BaseModel]) -> None:
    for method in ("json_schema", "tools"):
        spec = output_spec(schema, method)
        body = spec["schema"] if method == "json_schema" else spec["parameters"]
        assert problems(body) == [], problems(body)
        assert not _keyword(body, "title")  # prose the model does not need


def _keyword(node: Any, name: str) -> bool:
    """Whether `name` is used as a keyword (a string value) anywhere in the schema."""
    if isinstance(node, dict):
        return any((k == name and isinstance(v, str)) or _keyword(v, name) for k, v in node.items())
    return isinstance(node, list) and any(_keyword(v, name) for v in node)


def test_the_mantle_case_model_had_what_converters_refuse() -> None:
    """The check above is not vacuous: the raw case schema has empty `items`."""
    assert problems(get_dialect("mantle").model.model_json_schema())


def test_extract_json_repairs_but_never_completes() -> None:
    assert extract_json('Sure! {"a": [1, 2,], "b": True} hope that helps') == (
        {"a": [1, 2], "b": True},
        None,
    )
    value, problem = extract_json('{"a": "cut off')
    assert value is None and "ends before the object closes" in problem


# --- settings -----------------------------------------------------------------------------


def _settings(tmp_path: Path, body: str, monkeypatch: pytest.MonkeyPatch) -> Path:
    for name in ("CASEGEN_MODEL", "OPENAI_BASE_URL", "OPENAI_API_KEY"):
        monkeypatch.delenv(name, raising=False)
    (tmp_path / "casegen.toml").write_text(
        'model = "m"\nbase_url = "http://127.0.0.1:8080/v1"\n' + body, "utf-8"
    )
    return tmp_path


def test_structured_output_is_an_alias(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    start = _settings(tmp_path, 'structured_output = "function_calling"\n', monkeypatch)
    config = resolve_model_config(None, start=start)
    assert config is not None and config.structured == "tools"
    assert ModelConfig(model="m", structured_output="json_schema").structured == "json_schema"


def test_context_max_tokens_and_refine_plan_settings(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    start = _settings(tmp_path, 'structured = "json"\nmax_tokens = 900\n', monkeypatch)
    config = resolve_model_config(None, start=start)
    assert config is not None
    assert (config.structured, config.context_tokens, config.refines_plan) == ("json", 8192, False)
    assert config.max_tokens_for("draft") == config.max_tokens_for("judge") == 900
    (tmp_path / "casegen.toml").write_text(
        'model = "m"\ncontext = 32768\nmax_tokens = { draft = 450 }\n', "utf-8"
    )
    config = resolve_model_config(None, start=start)
    assert config is not None and config.refines_plan and config.max_tokens_for("draft") == 450
    assert config.max_tokens_for("judge") == DEFAULT_MAX_TOKENS["judge"]


def test_an_unknown_call_kind_is_named(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    start = _settings(tmp_path, "max_tokens = { drafts = 500 }\n", monkeypatch)
    with pytest.raises(ConfigError, match="unknown call kind 'drafts'") as caught:
        resolve_model_config(None, start=start)
    assert "draft" in (caught.value.hint or "")


# --- drafting -----------------------------------------------------------------------------


def _behavior(**values: Any) -> Behavior:
    base = {
        "id": "book:new_patient",
        "source": "book",
        "dialect": "anychat",
        "type": "happy_path",
        "case": "new_patient",
        "title": "A new patient books a cleaning",
        "description": "A new patient books a cleaning.",
        "covers": ["tool:book_appointment"],
        "facts": {},
    }
    return Behavior.model_validate(base | values)


async def test_a_whole_case_that_fails_the_case_model_goes_to_repair(
    openai_stub: StubOpenAI, tmp_path: Path
) -> None:
    project = load_project(REPO / "examples" / "clinic")
    broken = {"scenario": {"name": 7}, "unexpected": True}
    openai_stub.handler = lambda request: ok(broken)
    engine = LLMEngine(config_for(openai_stub, cache_dir=tmp_path / "c"), use_cache=False)
    result = await engine.draft(DraftContext(project, "anychat", _behavior()))
    assert result.data == broken  # validation turns it into findings; repair gets its turn
    assert result.usage.calls == 3


async def test_plan_refinement_is_off_for_a_small_context(
    openai_stub: StubOpenAI, tmp_path: Path
) -> None:
    project = load_project(REPO / "examples" / "bank")
    engine = LLMEngine(config_for(openai_stub), use_cache=False)
    planned = [_behavior(id="card_replace:stolen", source="card_replace", dialect="mantle")]
    refined, usage = await engine.refine_plan(project, "mantle", "card_replace", planned, None)
    assert refined == planned and usage.calls == 0 and not openai_stub.requests
