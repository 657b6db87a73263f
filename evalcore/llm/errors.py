"""What a model call can end in after its retries, as exceptions that explain themselves.

Each carries the `usage` spent on the failed attempts, so a caller that records failures can
still account for the tokens.
"""

from __future__ import annotations

from ..redact import redact
from .usage import Usage


class LLMError(Exception):
    """A model call that did not produce a usable answer."""

    def __init__(self, message: str, *, usage: Usage | None = None, attempts: int = 0) -> None:
        # An endpoint may echo the key or a credentialed URL in its error body: the message
        # is masked before it can reach a report, the checkpoint store or a terminal.
        message = redact(message)
        super().__init__(message)
        self.usage = usage or Usage()
        self.attempts = attempts


class ModelUnavailableError(LLMError):
    """Rate limits, server errors, timeouts or connection errors outlasted the retries."""


class InvalidOutputError(LLMError):
    """The model kept answering with unparseable JSON or JSON that does not fit the schema."""

    def __init__(
        self,
        message: str,
        *,
        usage: Usage | None = None,
        attempts: int = 0,
        raw_text: str = "",
        problem: str = "",
        parsed: object = None,
    ) -> None:
        super().__init__(message, usage=usage, attempts=attempts)
        self.raw_text = redact(raw_text)
        """The last answer as the model wrote it."""
        self.problem = problem
        """What was wrong with the last answer."""
        self.parsed = parsed
        """The last answer's JSON when it parsed but did not fit the model (None otherwise):
        a drafting caller hands it to the findings-based repair instead of dropping it."""


class ModelRequestError(LLMError):
    """The endpoint rejected the request itself (bad key, unknown model, bad request): a
    retry would get the same answer."""


__all__ = ["InvalidOutputError", "LLMError", "ModelRequestError", "ModelUnavailableError"]
