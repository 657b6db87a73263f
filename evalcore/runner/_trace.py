"""What a finished conversation left behind, as check evaluators and the judge read it.

A `RunTrace` is read-only evidence: every turn sent with the agent's reply and timing, the
final event log (the target's authoritative log, or the runner's concatenation of per-turn
events with `user` events at turn starts), the transcript, and the target's `FinalRecord`
(end state, files, stdout). Check evaluators of every dialect get the same object.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal

from ..agents import AgentMessage, AgentReply, FinalRecord, UserTurn
from ..runcase import RunCase
from ..simulator import Utterance

TurnSource = Literal["start", "script", "simulator"]


@dataclass(frozen=True)
class TurnTrace:
    """One input sent to the agent and what came back."""

    number: int
    """0 for the session start, then 1, 2, … per user turn (the `[Tn]` of the ledger)."""
    user: UserTurn
    reply: AgentReply | None
    """None when the agent failed on this turn (the run is then errored)."""
    source: TurnSource
    sent_at_s: float
    """When the turn was sent, in seconds since the run started."""
    latency_ms: float | None
    """Time until the whole reply arrived; None when none did."""
    gap_ms: float | None = None
    """Time between the previous reply and this turn (the simulator's thinking time)."""
    ttft_ms: float | None = None
    """Time to first token when the target streams and reports it (`AgentReply.ttft_ms`)."""


@dataclass(frozen=True)
class RunTrace:
    """A whole run's evidence (see the module docstring)."""

    case: RunCase
    run_index: int
    turns: tuple[TurnTrace, ...]
    events: tuple[Mapping[str, Any], ...]
    transcript: tuple[Utterance, ...]
    final: FinalRecord

    @property
    def user_turns(self) -> list[TurnTrace]:
        """Turns 1…n (the session start left out)."""
        return [t for t in self.turns if t.number > 0]

    @property
    def replies(self) -> list[AgentReply]:
        """Every reply received, the start's included, in order."""
        return [t.reply for t in self.turns if t.reply is not None]

    @property
    def messages(self) -> list[AgentMessage]:
        """Every agent message, in order."""
        return [m for r in self.replies for m in r.messages]

    @property
    def last_reply(self) -> AgentReply | None:
        """The reply to the last turn sent (None when that turn got none)."""
        return self.turns[-1].reply if self.turns else None

    @property
    def state(self) -> dict[str, Any]:
        """End state: the last reply's `state` overlaid with `FinalRecord.state`."""
        merged: dict[str, Any] = {}
        for reply in self.replies:
            if reply.state:
                merged = dict(reply.state)
        merged.update(self.final.state)
        return merged


__all__ = ["RunTrace", "TurnSource", "TurnTrace"]
