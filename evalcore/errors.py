"""The user-facing error channel.

A `UserError` is a problem the person can fix (a bad path, an unknown target, a missing
model); the CLI and the MCP server print it without a traceback and with its hint. Everything
else is a bug and keeps its traceback.
"""

from __future__ import annotations


class UserError(Exception):
    """A problem in the person's input, reported without a traceback."""

    exit_code = 2

    def __init__(self, message: str, *, hint: str | None = None) -> None:
        # Messages quote what servers and agents answered: never let a key through.
        from .redact import redact  # start-up: its patterns compile only when an error is raised

        message = redact(message)
        hint = redact(hint) if hint else hint
        super().__init__(message)
        self.message = message
        self.hint = hint

    def __str__(self) -> str:
        return self.message if not self.hint else f"{self.message}\n  hint: {self.hint}"


class ConfigError(UserError):
    """Configuration is missing or contradictory (e.g. no model configured for `revise`)."""
