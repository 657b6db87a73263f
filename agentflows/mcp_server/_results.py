"""Tool results: the CLI's JSON as structured content, and errors a model can act on.

A tool never raises for a problem the caller can fix. A `UserError` (bad path, unknown
target, missing model) becomes an `isError` result carrying the same message and hint the
CLI prints; a report whose CLI exit code is non-zero (validation findings, failed runs) is
returned whole as structured content, flagged `isError` so the agent notices. Either way the
server keeps serving.
"""

from __future__ import annotations

import json
from typing import Any

from mcp.types import CallToolResult, TextContent

from evalcore.errors import UserError
from evalcore.redact import redact, redact_data


def payload_result(payload: dict[str, Any], *, is_error: bool = False) -> CallToolResult:
    """The payload as structured content, and as JSON text for clients that read only text."""
    text = json.dumps(redact_data(payload), indent=2, ensure_ascii=False, default=str)
    return CallToolResult(
        content=[TextContent(type="text", text=text)],
        structured_content=json.loads(text),
        is_error=is_error,
    )


def error_result(message: str, hint: str | None = None) -> CallToolResult:
    message, hint = redact(message), (redact(hint) if hint else hint)
    text = f"error: {message}" + (f"\nhint: {hint}" if hint else "")
    return CallToolResult(
        content=[TextContent(type="text", text=text)],
        structured_content={"error": message, "hint": hint},
        is_error=True,
    )


def user_error_result(exc: UserError) -> CallToolResult:
    return error_result(exc.message, exc.hint)


class Unavailable(UserError):
    """A tool whose feature this installation does not have (yet)."""

    def __init__(self, tool: str, missing: str) -> None:
        super().__init__(
            f"{tool} is not available in this version of casegen ({missing})",
            hint="upgrade casegen; the other tools work without it",
        )


__all__ = ["Unavailable", "error_result", "payload_result", "user_error_result"]
