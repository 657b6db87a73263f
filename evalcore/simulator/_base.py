"""What every simulated user is: a source of the next user message, given the conversation.

The runner owns the conversation and the agent; a simulator only answers "what does the user
say next, or are they done?". Keeping that one question behind a Protocol lets the offline
(quoted lines) and model-backed simulators be swapped without the runner knowing which ran.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal, Protocol

from ..llm.usage import Usage

Role = Literal["user", "agent"]


@dataclass(frozen=True)
class Utterance:
    """One line of the transcript: who said what, on which user turn.

    Turn 0 is everything before the first user message (a welcome, an outreach); turn n is
    the n-th user message and the agent's answer to it, the way Rasa numbers tracker turns.
    """

    turn: int
    role: Role
    text: str


@dataclass(frozen=True)
class SimulatorStep:
    """The simulator's decision: a message to send, or done (then `message` is not sent)."""

    message: str
    done: bool
    note: str | None = None
    """Why the simulator stopped or what it did unusually (shown in results)."""


class SimulationError(Exception):
    """The simulator cannot go on (no usable message after a retry, nothing to play
    offline): the run is reported as errored, never as failed."""

    def __init__(self, message: str, *, hint: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.hint = hint

    def __str__(self) -> str:
        return self.message if not self.hint else f"{self.message} ({self.hint})"


class Simulator(Protocol):
    """A simulated user for one run (a fresh instance per run: it may keep state)."""

    engine: str
    """`offline` or `llm`; recorded in every result."""
    model: str | None
    usage: Usage
    """Model usage so far (zero offline)."""

    async def next_step(self, history: Sequence[Utterance]) -> SimulatorStep:
        """The next user message given the conversation so far (agent and user lines)."""
        ...


__all__ = ["Role", "SimulationError", "Simulator", "SimulatorStep", "Utterance"]
