"""JSON as coding agents write it: JSONC files and JSON buried in a prose answer.

The original base44 runner removed `//…` with a regex, which also cut `"https://…"` strings
in half, and found JSON in an answer with a greedy `{.*}`. Both are replaced here by a small
tokenizer that knows where strings are: comments and trailing commas are removed only outside
strings, and a balanced-bracket scan finds the first complete value.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import Any

_FENCE = re.compile(r"```[ \t]*([A-Za-z0-9_-]*)[^\n]*\n(.*?)```", re.DOTALL)
_JSON_TAGS = {"", "json", "jsonc", "json5"}
_MAX_CANDIDATES = 500
"""Bracket positions tried per kind; bounds the scan of a long answer full of code."""


class JsonTextError(ValueError):
    """Text that is not JSON(C); the message names the line and column."""


def _reject_constant(name: str) -> Any:
    raise JsonTextError(f"{name} is not JSON")


def strip_jsonc(text: str) -> str:
    """`text` with comments and trailing commas blanked out, outside strings only.

    Blanked characters become spaces (newlines are kept), so line and column numbers of a
    later parse error still point into the original text.
    """
    out = list(text)
    i, n = 0, len(text)
    in_string = False
    last_comma: int | None = None
    while i < n:
        c = text[i]
        if in_string:
            if c == "\\":
                i += 2
                continue
            if c == '"':
                in_string = False
            i += 1
            continue
        if c == '"':
            in_string = True
            last_comma = None
        elif text.startswith("//", i):
            end = text.find("\n", i)
            end = n if end == -1 else end
            out[i:end] = " " * (end - i)
            i = end
            continue
        elif text.startswith("/*", i):
            end = text.find("*/", i + 2)
            if end == -1:
                line = text.count("\n", 0, i) + 1
                raise JsonTextError(f"line {line}: unterminated /* comment")
            for j in range(i, end + 2):
                if out[j] != "\n":
                    out[j] = " "
            i = end + 2
            continue
        elif c == ",":
            last_comma = i
        elif c in "}]":
            if last_comma is not None:
                out[last_comma] = " "
            last_comma = None
        elif not c.isspace():
            last_comma = None
        i += 1
    return "".join(out)


def loads(text: str, *, jsonc: bool = True) -> Any:
    """Parse JSON, or JSONC (comments, trailing commas) when `jsonc`; NaN/Infinity refused."""
    if text.startswith("\ufeff"):
        text = text[1:]
    source = strip_jsonc(text) if jsonc else text
    if not source.strip():
        raise JsonTextError("empty: no JSON value")
    try:
        return json.loads(source, parse_constant=_reject_constant)
    except json.JSONDecodeError as exc:
        raise JsonTextError(f"line {exc.lineno} column {exc.colno}: {exc.msg}") from None


def _balanced_end(text: str, start: int) -> int | None:
    """Index just past the bracket that closes `text[start]`, ignoring brackets in strings."""
    stack: list[str] = []
    in_string = False
    i = start
    while i < len(text):
        c = text[i]
        if in_string:
            if c == "\\":
                i += 2
                continue
            if c == '"':
                in_string = False
        elif c == '"':
            in_string = True
        elif c in "{[":
            stack.append("}" if c == "{" else "]")
        elif c in "}]":
            if not stack or stack.pop() != c:
                return None
            if not stack:
                return i + 1
        i += 1
    return None


def extract_json(
    text: str, accept: Callable[[Any], bool] = lambda _: True
) -> tuple[Any, str] | None:
    """The first JSON value in a prose answer that `accept`s, and where it was found.

    Order: fenced blocks tagged json/jsonc or untagged (first that parses), then the first
    balanced `{…}`, then the first balanced `[…]`. Comments and trailing commas are allowed.
    """
    for match in _FENCE.finditer(text):
        if match.group(1).lower() not in _JSON_TAGS:
            continue
        try:
            value = loads(match.group(2))
        except JsonTextError:
            continue
        if accept(value):
            return value, "a fenced block"
    for opener, what in (("{", "an object"), ("[", "an array")):
        start = text.find(opener)
        tries = 0
        while start != -1 and tries < _MAX_CANDIDATES:
            tries += 1
            end = _balanced_end(text, start)
            if end is not None:
                try:
                    value = loads(text[start:end])
                except JsonTextError:
                    value = None
                else:
                    if accept(value):
                        line = text.count("\n", 0, start) + 1
                        return value, f"{what} at line {line} of the answer"
            start = text.find(opener, start + 1)
    return None


__all__ = ["JsonTextError", "extract_json", "loads", "strip_jsonc"]
