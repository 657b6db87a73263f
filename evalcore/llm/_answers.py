"""Reading one raw model answer: the JSON it carries, and whether it fits the schema.

Kept apart from the call loop in `structured` so each says one thing: this module knows the
shapes a chat answer comes in (a tool call, JSON content, a fenced block, a cut-off answer),
`structured` knows when to ask again.
"""

from __future__ import annotations

import json
from typing import Any, TypeVar

from langchain_core.messages import AIMessage, BaseMessage
from pydantic import BaseModel, ValidationError

from ..lexicon.notation.markdown_fences import FENCED_JSON as _FENCED_JSON
from . import _methods
from .config import Method

M = TypeVar("M", bound=BaseModel)


def answer_json(message: BaseMessage, method: Method, raw_text: str) -> tuple[Any, str | None]:
    """The answer's JSON. A tool call counts only when its arguments parsed whole (LangChain
    files the others under `invalid_tool_calls`); without one, JSON written as the message
    content is taken (llama-cpp-python answers that way when its grammar converter fails).
    `json_schema` content is parsed strictly; `json` and `text` answers are extracted."""
    if method == "tools":
        if isinstance(message, AIMessage) and message.tool_calls:
            return message.tool_calls[0]["args"], None
        invalid = getattr(message, "invalid_tool_calls", None) or []
        if invalid:
            return None, f"not valid JSON ({json_error(str(invalid[0].get('args') or ''))})"
        content = str(message.content or "") if not isinstance(message.content, list) else ""
        parsed, problem = _methods.extract_json(content)
        if parsed is not None or problem is not None:
            return parsed, problem
        return None, cut_off(message)
    if method in ("json", "text"):
        parsed, problem = _methods.extract_json(raw_text)
        return parsed, problem or (None if parsed is not None else cut_off(message))
    text = strip_fence(raw_text)
    if not text.strip():
        return None, cut_off(message)
    try:
        return json.loads(text), None
    except ValueError:
        return None, f"not valid JSON ({json_error(text)})" + (
            "; " + cut if (cut := cut_off(message)) else ""
        )


def cut_off(message: BaseMessage) -> str | None:
    """Says so when the server stopped the answer at `max_tokens`."""
    meta = getattr(message, "response_metadata", None) or {}
    if meta.get("finish_reason") == "length":
        return "the answer was cut off at the output token limit"
    return None


def strip_fence(text: str) -> str:
    """Some servers wrap JSON in a markdown fence even when asked for a JSON schema."""
    match = _FENCED_JSON.fullmatch(text)
    return match.group(1) if match else text


def json_error(text: str) -> str:
    try:
        json.loads(text)
    except ValueError as exc:
        return str(exc)
    return "unexpected"


def validate(
    schema: type[M], parsed: Any, parsing_error: str | None, method: Method
) -> tuple[M | None, str]:
    if parsing_error is not None:
        return None, parsing_error
    if parsed is None:
        what = "no tool call" if method == "tools" else "an empty answer"
        return None, f"{what} instead of a {schema.__name__} object"
    try:
        return schema.model_validate(parsed), ""
    except ValidationError as exc:
        return None, f"does not fit {schema.__name__}: {errors(exc)}"


def errors(exc: ValidationError, limit: int = 3) -> str:
    items = exc.errors()
    shown = [f"{'/'.join(str(p) for p in e['loc']) or '(root)'}: {e['msg']}" for e in items[:limit]]
    more = f" (+{len(items) - limit} more)" if len(items) > limit else ""
    return "; ".join(shown) + more


def raw_text_of(message: BaseMessage) -> str:
    calls = message.additional_kwargs.get("tool_calls") or []
    if calls:
        return str(calls[0].get("function", {}).get("arguments", ""))
    if isinstance(message, AIMessage) and message.tool_calls:
        return json.dumps(message.tool_calls[0]["args"], ensure_ascii=False)
    return message.text if isinstance(message.content, list) else str(message.content)
