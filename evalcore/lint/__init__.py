"""Reference lint: does every id a case names exist in the project?

Each dialect's lint lives in its plugin (`evalcore/dialects/<name>/_lint.py`); each exposes
`lint_<dialect>(data, project) -> list[Finding]` and builds findings with the helpers below so
that every unknown id carries a "did you mean" and the candidates repair needs.
Lint must never raise on malformed data: schema findings already cover shape problems, so
lint skips whatever is not the shape it expects.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

from ..findings import Finding, Severity
from ..suggest import did_you_mean


def unknown_id(
    code: str,
    path: str,
    value: Any,
    candidates: Iterable[str],
    *,
    what: str,
    message: str | None = None,
    key: bool = False,
    severity: Severity = "error",
) -> Finding:
    """A finding for an id that does not exist, with a suggestion and repair candidates.

    `key=True` when the id is a mapping key (an initial slot name, a tool argument): repair
    then renames the key instead of replacing a value.
    """
    pool = sorted({c for c in candidates if isinstance(c, str)})
    context: dict[str, Any] = {"candidates": pool}
    if key:
        context["key"] = True
    return Finding(
        code=code,
        severity=severity,
        path=path,
        value=value,
        message=message or f"unknown {what} '{value}'",
        suggestion=did_you_mean(str(value), pool, what=what),
        context=context,
    )


def regex_error(pattern: Any, *, flags: int = 0) -> str | None:
    """The compile error of `pattern` as a regex, or None when it compiles."""
    if not isinstance(pattern, str):
        return None
    try:
        re.compile(pattern, flags)
    except re.error as exc:
        return str(exc)
    return None


def as_dict(value: Any) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


def as_list(value: Any) -> list[Any]:
    return value if isinstance(value, list) else []


__all__ = ["as_dict", "as_list", "regex_error", "unknown_id"]
