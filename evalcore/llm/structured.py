"""One structured model call: messages in, a validated pydantic value out, usage accounted.

    result = await structured_call(chat, messages, MantleCase, config=config, cache=cache)
    result.value        # a MantleCase
    result.usage        # Usage(calls=1, input_tokens=..., cost_usd=..., cache_hits=0)

Two kinds of failure are retried, each with its own budget of `config.max_retries`:

- transient ones (HTTP 429 honouring Retry-After, 5xx, timeouts, connection errors), with
  exponential backoff and jitter;
- invalid output (not JSON, no tool call, or JSON that fails the pydantic model), at once,
  since waiting does not change a model's answer but sampling again often does.

A request the endpoint rejects (bad key, unknown model, 400) is not retried. What outlasts
its budget raises an `LLMError` subclass that says what happened and carries the usage.

How the request is made: the chat model is bound exactly as
`with_structured_output(spec, method=..., include_raw=True)` binds it (`response_format:
json_schema`, or one forced tool), and the raw answer is parsed and validated here:

- the schema is sent as a plain JSON Schema, not as the pydantic class, which would make the
  OpenAI SDK force strict mode (open objects and `oneOf` unions do not satisfy it) and
  validate inside the HTTP call, where a failure is not an "invalid output" retry;
- LangChain's structured-output parser is left out: it accepts partial JSON (a cut-off case
  would pass as a shorter valid one), and running it costs about a third of the client's
  CPU per call, which shows as lost concurrency (see docs/benchmarks.md).
"""

from __future__ import annotations

import asyncio
import copy
import json
import logging
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, Generic, TypeVar

import openai
from langchain_core.language_models import BaseChatModel
from langchain_core.messages import (
    AIMessage,
    BaseMessage,
    HumanMessage,
    SystemMessage,
    convert_to_messages,
)
from pydantic import BaseModel, ValidationError

from . import _fit, _methods, early
from ._answers import answer_json, raw_text_of, validate
from ._retry import backoff_s, endpoint, one_line, raise_rejected, transient_reason
from .budget import RateBudget, budget_for, estimate_tokens
from .cache import ResponseCache, cache_key
from .config import Method, ModelConfig, StructuredMethod, normalize_method
from .early import output_spec_of as _output_spec
from .errors import InvalidOutputError, ModelUnavailableError
from .inflight import request_slot
from .usage import Usage, cost_usd

M = TypeVar("M", bound=BaseModel)
Sleep = Callable[[float], Awaitable[None]]
MessageLike = BaseMessage | tuple[str, str] | dict[str, Any] | str

log = logging.getLogger("casegen.llm")


@dataclass(frozen=True)
class StructuredResult(Generic[M]):
    """A validated answer and what it cost."""

    value: M
    usage: Usage
    raw_text: str
    """The answer as the model wrote it (message content, or the tool call's arguments)."""
    cached: bool = False
    attempts: int = 1
    """Model calls made for this result, failed ones included (0 for a cache hit)."""


async def structured_call(
    chat_model: BaseChatModel,
    messages: Sequence[MessageLike],
    schema: type[M],
    *,
    config: ModelConfig,
    cache: ResponseCache | None = None,
    no_cache: bool = False,
    method: StructuredMethod | None = None,
    strict: bool = False,
    kind: str = "other",
    sleep: Sleep = asyncio.sleep,
) -> StructuredResult[M]:
    """Ask `chat_model` for one `schema` value, with retries, cache and usage accounting.

    Args:
        chat_model: Usually `make_chat_model(config)`; any chat model that supports
            `bind(response_format=...)` / `bind_tools` works (tests use fake ones).
        messages: The prompt, e.g. `render_prompt(...).messages`.
        schema: The pydantic model the answer must validate against.
        config: Model name, endpoint, retry budget, backoff, context, limits and prices.
        cache: Where answers are cached; None: no cache.
        no_cache: Bypass the cache for reads and writes.
        method: `json_schema`, `tools`, `json`, `text` or `auto`; default
            `config.structured` (see `evalcore.llm._methods`).
        strict: Ask the endpoint to enforce the schema strictly (OpenAI strict mode).
        kind: The call's kind (`draft`, `judge`, ...): picks its `max_tokens`.
        sleep: The backoff sleep (tests record delays with it).

    Raises:
        ModelUnavailableError: transient errors outlasted `config.max_retries` retries.
        InvalidOutputError: invalid output outlasted `config.max_retries` retries.
        ModelRequestError: the endpoint rejected the request (not retried), or the prompt
            cannot fit the model's context.
    """
    current, may_fall_back = _methods.chosen_method(config, method)
    chat_messages = convert_to_messages(list(messages))
    spec = _output_spec(schema, strict)
    key: str | None = None
    if cache is not None and not no_cache:
        key = cache_key(
            model=config.model,
            base_url=config.base_url,
            messages=[_message_json(m) for m in chat_messages],
            schema=spec,
            method="strict" if strict else "structured",
            temperature=config.temperature,
        )
        hit = _from_cache(cache, key, schema)
        if hit is not None:
            return hit
    call = _Call(config, chat_messages, spec, config.max_tokens_for(kind))
    fitted = call.fitted(1.0, current)
    usage = Usage()
    transient = invalid = 0
    shrink = 1.0  # the share of the context the prompt may use; a time-out lowers it
    feedback: list[BaseMessage] = []
    budget = _budget(config)
    while True:
        prompt = _prompt(fitted, spec, current) + feedback
        estimate = estimate_tokens("".join(str(m.content) for m in prompt))
        if budget is not None:
            await budget.acquire(estimate, sleep)
        runnable = _methods.bind(
            chat_model,
            spec,
            current,
            strict=strict,
            max_tokens=call.max_tokens,
            temperature=_temperature(config, invalid),
            classic_max_tokens=config.self_hosted,
        )
        try:
            answer = await _early(config, runnable, prompt, current, usage)
            if answer is None:
                answer = await _ask(runnable, prompt, current, config)
        except Exception as exc:  # transient → back off and retry; anything else is raised
            reason = _methods.refusal(exc, current) if may_fall_back else None
            following = _methods.next_method(config, current, reason) if reason else None
            if following is not None:
                current = following  # a capability answer: no back-off, no retry spent
                fitted = call.fitted(shrink, current)  # the schema may now be in the prompt
                continue
            transient += 1
            await _after_error(exc, transient, config, usage, sleep, budget)
            if isinstance(exc, openai.APITimeoutError | TimeoutError):
                shrink *= 0.75  # a smaller prompt answers sooner on a slow local server
                fitted = call.fitted(shrink, current)
            continue
        if budget is not None:
            budget.settle(estimate, answer.usage.input_tokens + answer.usage.output_tokens)
        usage = usage + answer.usage
        value, problem = validate(schema, answer.parsed, answer.problem, current)
        if value is not None:
            if cache is not None and key is not None:
                cache.put(
                    key,
                    {
                        "model": config.model,
                        "schema": spec["name"],
                        "value": answer.parsed,
                        "raw_text": answer.raw_text,
                        "usage": usage.model_dump(),
                        "created_at": datetime.now(tz=UTC).isoformat(timespec="seconds"),
                    },
                )
            return StructuredResult(value, usage, answer.raw_text, attempts=usage.calls)
        invalid += 1
        if invalid > config.max_retries:
            raise InvalidOutputError(
                f"model '{config.model}' gave invalid {schema.__name__} output "
                f"{invalid} times; last problem: {problem}; last answer: "
                f"{_excerpt(answer.raw_text)}",
                usage=usage,
                attempts=usage.calls + transient,
                raw_text=answer.raw_text,
                problem=problem,
                parsed=answer.parsed,
            )
        log.info("%s: invalid output (%s); retry %d", config.model, problem, invalid)
        feedback = _feedback(answer.raw_text, problem, call.max_tokens)


@dataclass(frozen=True)
class _Call:
    """What fitting one call's prompt needs: its context, answer limit and schema size."""

    config: ModelConfig
    messages: list[BaseMessage]
    spec: dict[str, Any]
    max_tokens: int

    def fitted(self, share: float, method: Method) -> list[BaseMessage]:
        """The prompt cut to `share` of the context (1.0 first; less after a time-out),
        leaving room for the answer and, where `method` states it, the schema."""
        reserved = self.max_tokens
        instruction = _methods.schema_instruction(self.spec, method)
        if instruction is not None:
            reserved += _fit.tokens(instruction)
        context = int(self.config.context_tokens * share)
        if share < 1.0 and context <= reserved + 2 * _fit.MARGIN_TOKENS:
            context = self.config.context_tokens  # too small to shrink further
        return _fit.fit(self.messages, context=context, reserved=reserved, model=self.config.model)


def _prompt(messages: list[BaseMessage], spec: dict[str, Any], method: Method) -> list[BaseMessage]:
    """The messages with the schema stated where the server may not enforce it."""
    instruction = _methods.schema_instruction(spec, method)
    if instruction is None:
        return list(messages)
    # Into the first system message: some chat templates take one system message, first.
    for index, message in enumerate(messages):
        if message.type == "system" and isinstance(message.content, str):
            joined = f"{message.content.rstrip()}\n\n{instruction}"
            return [*messages[:index], SystemMessage(content=joined), *messages[index + 1 :]]
    return [SystemMessage(content=instruction), *messages]


def _feedback(raw_text: str, problem: str, max_tokens: int) -> list[BaseMessage]:
    """What the next attempt adds: the answer it replaces and what was wrong with it, so a
    retry is not the same prompt again."""
    shown = raw_text if len(raw_text) <= 1200 else raw_text[:1200] + " …"
    ask = f"That answer cannot be used: {problem}. Answer again with the corrected JSON only"
    if "cut off" in problem or "token limit" in problem:
        ask += f", shorter (at most about {max_tokens * 3 // 4} tokens)"
    return [AIMessage(content=shown or "(empty)"), HumanMessage(content=ask + ".")]


def _temperature(config: ModelConfig, invalid: int) -> float | None:
    """Sampling temperature of an attempt: the configured one first, higher after each
    invalid answer (at temperature 0 the same prompt gives the same wrong answer)."""
    if config.temperature is None or invalid == 0:
        return None  # the chat model's own (configured) temperature
    return min(1.0, config.temperature + 0.3 * invalid)


def output_spec(
    schema: type[BaseModel], method: StructuredMethod = "json_schema", *, strict: bool = False
) -> dict[str, Any]:
    """The schema as the request carries it: a named JSON Schema (or tool parameters)."""
    spec = copy.deepcopy(_output_spec(schema, strict))
    if normalize_method(method) == "json_schema":
        return {
            "name": spec["name"],
            "description": spec["description"],
            "schema": spec["parameters"],
            "strict": strict,
        }
    return spec


# --- one attempt ----------------------------------------------------------------------------


@dataclass(frozen=True)
class _Answer:
    """What one model call gave back, before validation."""

    parsed: Any
    problem: str | None
    """Why there is no JSON to validate (None when `parsed` is usable or absent)."""
    raw_text: str
    usage: Usage


#: What the client raises on a body that is not a chat completion (see `_ask`).
_NOT_A_COMPLETION = (
    TypeError,
    AttributeError,
    KeyError,
    IndexError,
    RecursionError,
    UnicodeDecodeError,
    json.JSONDecodeError,
)


async def _ask(
    runnable: Any, messages: list[BaseMessage], method: Method, config: ModelConfig
) -> _Answer:
    """One call; transient errors propagate, an answer (even an unusable one) returns."""
    try:
        async with request_slot(), asyncio.timeout(_guard_s(config)):
            message = await runnable.ainvoke(messages)
    except (openai.LengthFinishReasonError, openai.ContentFilterFinishReasonError) as exc:
        return _Answer(None, _finish_problem(exc), "", _completion_usage(exc, config))
    except openai.APIResponseValidationError as exc:
        return _Answer(None, f"the answer is malformed ({one_line(exc)})", "", Usage(calls=1))
    except _NOT_A_COMPLETION as exc:
        # garbage, no `choices`, JSON nested past the parser, an event stream: the client
        # fails on its way through the body; that is an unusable answer, not a crash
        problem = f"the endpoint's answer is not a chat completion ({type(exc).__name__}: "
        return _Answer(None, problem + f"{one_line(exc)[:160]})", "", Usage(calls=1))
    raw_text = raw_text_of(message)
    parsed, problem = answer_json(message, method, raw_text)
    return _Answer(parsed, problem, raw_text, _message_usage(message, config))


async def _early(
    config: ModelConfig, runnable: Any, prompt: list[BaseMessage], method: Method, usage: Usage
) -> _Answer | None:
    """The answer to this attempt's request when it was sent early (`evalcore.llm.early`):
    only a first `json_schema` attempt can have been, the early body must be the one the
    chat client would send now, and only a plain finished answer is taken, read as `_ask`
    reads the client's message."""
    if method != "json_schema" or usage.calls or not early.pending():
        return None
    taken = await early.take(config, _client_body(runnable, prompt))
    if taken is None:
        return None
    message = AIMessage(content=taken.content, response_metadata={"finish_reason": "stop"})
    parsed, problem = answer_json(message, method, taken.content)
    tokens = _usage(taken.input_tokens, taken.output_tokens, config)
    return _Answer(parsed, problem, taken.content, tokens)


def _client_body(runnable: Any, prompt: list[BaseMessage]) -> dict[str, Any] | None:
    """The JSON body the bound chat client would post for `prompt` (its `extra_body`
    merged in, as the OpenAI client does); None for a client that does not say."""
    build = getattr(getattr(runnable, "bound", None), "_get_request_payload", None)
    if build is None:
        return None
    try:
        payload = dict(build(prompt, **getattr(runnable, "kwargs", {})))
    except Exception:  # a client that cannot say asks for itself
        return None
    payload.update(payload.pop("extra_body", None) or {})
    return payload


def _budget(config: ModelConfig) -> RateBudget | None:
    if config.rpm is None and config.tpm is None:
        return None
    return budget_for(config.base_url, config.model, config.rpm, config.tpm)


async def _after_error(
    exc: Exception,
    transient: int,
    config: ModelConfig,
    usage: Usage,
    sleep: Sleep,
    budget: RateBudget | None = None,
) -> None:
    """Back off before retry number `transient`, or raise when `exc` is final."""
    reason = transient_reason(exc, config)
    if reason is None:
        raise_rejected(exc, config, usage)
        raise exc
    if transient > config.max_retries:
        raise ModelUnavailableError(
            f"model '{config.model}' at {endpoint(config)} did not answer after "
            f"{transient} attempts; last: {reason}",
            usage=usage,
            attempts=usage.calls + transient,
        ) from exc
    delay = backoff_s(config, transient, exc)
    log.info("%s: %s; retry %d in %.2fs", config.model, reason, transient, delay)
    if budget is not None and isinstance(exc, openai.RateLimitError):
        budget.pause(delay)  # every caller of this endpoint backs off, not only this one
        return  # the budget's wait is the back-off
    await sleep(delay)


def _from_cache(cache: ResponseCache, key: str, schema: type[M]) -> StructuredResult[M] | None:
    entry = cache.get(key)
    if entry is None:
        return None
    try:
        value = schema.model_validate(entry.get("value"))
    except ValidationError:
        return None  # the model's validators changed since; ask again
    return StructuredResult(
        value, Usage(cache_hits=1), str(entry.get("raw_text", "")), cached=True, attempts=0
    )


def _message_json(message: BaseMessage) -> dict[str, Any]:
    return {"role": message.type, "content": message.content}


# --- usage --------------------------------------------------------------------------------


def _message_usage(message: BaseMessage, config: ModelConfig) -> Usage:
    meta = getattr(message, "usage_metadata", None) or {}
    return _usage(int(meta.get("input_tokens", 0)), int(meta.get("output_tokens", 0)), config)


def _completion_usage(exc: Exception, config: ModelConfig) -> Usage:
    completion = getattr(exc, "completion", None)
    tokens = getattr(completion, "usage", None)
    if tokens is None:
        return Usage(calls=1)
    return _usage(tokens.prompt_tokens, tokens.completion_tokens, config)


def _usage(input_tokens: int, output_tokens: int, config: ModelConfig) -> Usage:
    return Usage(
        calls=1,
        input_tokens=input_tokens,
        output_tokens=output_tokens,
        cost_usd=cost_usd(
            input_tokens, output_tokens, config.input_cost_per_mtok, config.output_cost_per_mtok
        ),
    )


def _guard_s(config: ModelConfig) -> float:
    """An outer limit in case the client's own timeout does not fire (e.g. a fake model)."""
    return config.timeout_s * 1.25 + 0.5


def _finish_problem(exc: Exception) -> str:
    if isinstance(exc, openai.LengthFinishReasonError):
        return "the answer was cut off at the output token limit"
    return "the answer was withheld by the content filter"


def _excerpt(raw_text: str) -> str:
    return repr(one_line(raw_text, 200)) if raw_text else "(empty)"


__all__ = ["MessageLike", "StructuredResult", "output_spec", "structured_call"]
