"""Which structured-output method an endpoint gets, and how each one is asked and read.

Servers differ: the OpenAI API and llama.cpp's native `llama-server` enforce
`response_format: json_schema`; llama-cpp-python's server answers it with an HTTP 500 but
takes a forced tool call (or `json_object` with a `schema`, which it turns into a grammar);
some servers know only plain text. With `structured = "auto"` the strongest method is tried
first and an error that names the method (`response_format`, `json_schema`, `tools`...) is
taken as the endpoint's answer about its capabilities, not as a transient failure: the next
method is used at once and remembered for the rest of the run, per endpoint and model.

    json_schema → tools (schema also in the prompt) → json (json_object) → text (extracted)
"""

from __future__ import annotations

import json
import logging
import re
from typing import Any

import openai

from ..lexicon.en.server_errors import JSON_OBJECT_REFUSED, JSON_SCHEMA_REFUSED, TOOLS_REFUSED
from ..lexicon.notation.python_source import PYTHON_CONSTANT as _PYTHON_CONSTANT
from ._schema import without_descriptions
from .config import METHOD_ORDER as ORDER
from .config import Method, ModelConfig, normalize_method

log = logging.getLogger("casegen.llm")

#: Words in an error body that say the request's output format (not the server) is the
#: problem. Matched case-insensitively on the status error's message.
_NAMES: dict[Method, re.Pattern[str]] = {
    "json_schema": JSON_SCHEMA_REFUSED,
    "tools": TOOLS_REFUSED,
    "json": JSON_OBJECT_REFUSED,
    "text": re.compile(r"(?!)"),
}

#: A schema stated in the prompt longer than this loses its descriptions (a case model's
#: run to thousands of tokens; the grammar or the validator still holds the shape).
PROMPT_SCHEMA_CHARS = 4000

#: (base_url, model) → the method found to work (process-wide: one detection per run).
_DETECTED: dict[tuple[str | None, str], Method] = {}


def chosen_method(config: ModelConfig, requested: str | None = None) -> tuple[Method, bool]:
    """The method for the next call and whether a refusal may move on to the next one."""
    wanted = normalize_method(requested or config.structured)
    if wanted != "auto":
        return wanted, False
    return _DETECTED.get(_key(config), ORDER[0]), True


def next_method(config: ModelConfig, method: Method, reason: str) -> Method | None:
    """Remember that `method` is refused by this endpoint; the next one to try, if any."""
    index = ORDER.index(method)
    if index + 1 >= len(ORDER):
        return None
    following = ORDER[index + 1]
    _DETECTED[_key(config)] = following
    log.warning(
        "%s at %s does not take structured output by %s (%s); using %s from now on",
        config.model,
        config.base_url or "the OpenAI API",
        method,
        reason,
        following,
    )
    return following


def detected(config: ModelConfig) -> Method | None:
    """The method detected for this endpoint so far (None: not detected yet)."""
    return _DETECTED.get(_key(config))


def reset_detected() -> None:
    """Forget every detection (tests; a new run in the same process)."""
    _DETECTED.clear()


def refusal(exc: Exception, method: Method) -> str | None:
    """Why `exc` says the endpoint cannot do `method`, or None when it says something else.

    An HTTP 400/404/415/422/500/501 whose message names the output format is a capability
    answer; auth errors, rate limits and messages about anything else are not.
    """
    if not isinstance(exc, openai.APIStatusError):
        return None
    if exc.status_code in (401, 403, 408, 409, 425, 429) or exc.status_code in (502, 503, 504):
        return None
    text = " ".join(str(exc.message or "").split())
    body = getattr(exc, "body", None)
    if body is not None:
        text += " " + json.dumps(body, default=str)
    if _NAMES[method].search(text):
        return f"HTTP {exc.status_code}: {text[:160]}"
    return None


# --- asking ---------------------------------------------------------------------------------


def bind(
    chat_model: Any,
    spec: dict[str, Any],
    method: Method,
    *,
    strict: bool,
    max_tokens: int | None,
    temperature: float | None,
    classic_max_tokens: bool = False,
) -> Any:
    """The chat model bound to answer in `spec` by `method`, with this call's limits.

    `classic_max_tokens`: send the limit as `max_tokens` in the body, the field every
    OpenAI-compatible server reads (llama-cpp-python's ignores `max_completion_tokens`,
    which the OpenAI client sends for `max_tokens`)."""
    options: dict[str, Any] = {}
    if max_tokens is not None and classic_max_tokens:
        options["extra_body"] = {"max_tokens": max_tokens}
    elif max_tokens is not None:
        options["max_tokens"] = max_tokens
    if temperature is not None:
        options["temperature"] = temperature
    if method == "json_schema":
        body = {"name": spec["name"], "schema": spec["parameters"], "strict": strict}
        if spec.get("description"):
            body["description"] = spec["description"]
        return chat_model.bind(
            response_format={"type": "json_schema", "json_schema": body}, **options
        )
    if method == "tools":
        tool = {"type": "function", "function": spec}
        tool_options: dict[str, Any] = {"tool_choice": spec["name"], **options}
        if strict:
            tool_options["strict"] = True
        return chat_model.bind_tools([tool], **tool_options)
    if method == "json":
        # `schema` is llama-cpp-python's (and Anyscale's) way to constrain json_object
        # with a grammar; servers that do not know it ignore it.
        return chat_model.bind(
            response_format={"type": "json_object", "schema": spec["parameters"]}, **options
        )
    return chat_model.bind(**options) if options else chat_model


def schema_instruction(spec: dict[str, Any], method: Method) -> str | None:
    """The schema stated in the prompt, for methods where the server may not enforce it."""
    if method == "json_schema":
        return None
    schema = json.dumps(spec["parameters"], ensure_ascii=False, separators=(",", ":"))
    if len(schema) > PROMPT_SCHEMA_CHARS:  # a whole case model: its shape, not its prose
        bare = without_descriptions(spec["parameters"])
        schema = json.dumps(bare, ensure_ascii=False, separators=(",", ":"))
    how = {
        "tools": f"Answer by calling the tool `{spec['name']}`; its arguments",
        "json": "Answer with one JSON object that",
        "text": "Answer with one JSON object and nothing else (no prose, no fence) that",
    }[method]
    return f"{how} must match this JSON Schema:\n{schema}"


# --- reading --------------------------------------------------------------------------------


def extract_json(text: str) -> tuple[Any, str | None]:
    """The first JSON object in `text`, repaired where the repair cannot change meaning.

    Accepted: a markdown fence, prose around the object, trailing commas, Python's
    True/False/None. Not accepted: an object cut off before it closes (a truncated answer
    must not pass as a shorter valid one).
    """
    stripped = text.strip()
    if not stripped:
        return None, None
    try:
        return json.loads(stripped), None
    except ValueError:
        pass
    block = _first_object(stripped)
    if block is None:
        return None, "no JSON object in the answer" + (
            " (it ends before the object closes)" if "{" in stripped else ""
        )
    for candidate in (block, _repaired(block)):
        try:
            return json.loads(candidate), None
        except ValueError as exc:
            problem = f"not valid JSON ({exc})"
    return None, problem


def _first_object(text: str) -> str | None:
    """The first balanced `{...}` of `text` (strings and escapes respected)."""
    start = text.find("{")
    while start != -1:
        depth, in_string, escaped = 0, False, False
        for index in range(start, len(text)):
            char = text[index]
            if in_string:
                if escaped:
                    escaped = False
                elif char == "\\":
                    escaped = True
                elif char == '"':
                    in_string = False
            elif char == '"':
                in_string = True
            elif char == "{":
                depth += 1
            elif char == "}":
                depth -= 1
                if depth == 0:
                    return text[start : index + 1]
        return None  # never closed
    return None


def _repaired(block: str) -> str:
    out = re.sub(r",\s*([}\]])", r"\1", block)
    return _PYTHON_CONSTANT.sub(_literal, out)


def _literal(match: re.Match[str]) -> str:
    return {"True": "true", "False": "false", "None": "null"}[match.group(1)]


def _key(config: ModelConfig) -> tuple[str | None, str]:
    return (config.base_url, config.model)


__all__ = [
    "ORDER",
    "bind",
    "chosen_method",
    "detected",
    "extract_json",
    "next_method",
    "refusal",
    "reset_detected",
    "schema_instruction",
]
