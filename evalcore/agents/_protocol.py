"""How the runner talks to an agent under test, whatever it is.

Every target (`rasa:`, `http:`, `python:`, `demo:`, `command:`) opens one `AgentSession` per
run and exchanges `UserTurn`s for `AgentReply`s. The same shapes are casegen's own JSON agent
protocol over HTTP (docs/agent-protocol.md), so an in-process callable, a demo agent and a
remote service are interchangeable.
"""

from __future__ import annotations

from typing import Any, Literal, Protocol

from pydantic import BaseModel, ConfigDict, Field

TurnType = Literal["start", "text", "chip", "slot", "confirm", "system", "action", "media"]


class UserTurn(BaseModel):
    """One input from the (simulated) user, or the session start.

    `start` carries the case's setup: Mantle `initial_slots`, or the Anychat `scenario`
    (persona, appointments, start kind, clock, history, stubs).
    """

    model_config = ConfigDict(extra="forbid")

    type: TurnType
    text: str | None = None
    chip: str | None = None
    slot: int | None = None
    confirm: bool | None = None
    event: str | None = None
    """System event for `system` turns: optOut, optIn, subscribed, unsubscribed."""
    action: str | None = None
    label: str | None = None
    media: str | None = None
    url: str | None = None
    fallback: str | None = None
    """Text to send instead when the channel cannot show the chip/slot/confirm."""
    setup: dict[str, Any] | None = None

    def as_text(self) -> str:
        """How the turn reads in a transcript."""
        if self.type == "text":
            return self.text or ""
        if self.type == "chip":
            return f"[chip {self.chip}]"
        if self.type == "slot":
            return f"[slot {self.slot}]"
        if self.type == "confirm":
            return "[confirm yes]" if self.confirm else "[confirm no]"
        if self.type == "system":
            return f"[system {self.event}]"
        if self.type == "action":
            return f"[action {self.action}{' ' + self.label if self.label else ''}]"
        if self.type == "media":
            return f"[{self.media} {self.url}]" + (f" {self.text}" if self.text else "")
        return "[start]"


class AgentMessage(BaseModel):
    """One message from the agent: text plus rich parts (AMF), chips and buttons."""

    model_config = ConfigDict(extra="allow")

    text: str = ""
    response: str | None = None
    """The response name that produced it (Mantle `utter_*`), when the agent knows it."""
    parts: list[dict[str, Any]] = Field(default_factory=list)
    chips: list[dict[str, Any]] = Field(default_factory=list)
    buttons: list[dict[str, Any]] = Field(default_factory=list)


class AgentReply(BaseModel):
    """What the agent did in answer to one turn."""

    model_config = ConfigDict(extra="allow")

    messages: list[AgentMessage] = Field(default_factory=list)
    events: list[dict[str, Any]] = Field(default_factory=list)
    """Events in Rasa's tracker wire format (reference/mantle.md §6) or Anychat-style
    events (`tool_called`, `playbook_switched`, `warning`, `model_call`)."""
    state: dict[str, Any] = Field(default_factory=dict)
    """End state after the turn: appointments, person, outcomes, activePlaybook, warnings,
    modelCalls (Anychat); memory (Mantle demo)."""
    ended: bool = False
    """The agent closed the conversation (hand-off, hang-up)."""


class FinalRecord(BaseModel):
    """What a session leaves behind once closed."""

    model_config = ConfigDict(extra="allow")

    events: list[dict[str, Any]] | None = None
    """The authoritative full event log when the target keeps one (a Rasa tracker);
    None means the runner's concatenation of per-turn events is the log."""
    state: dict[str, Any] = Field(default_factory=dict)
    output: str | None = None
    """Command targets: the agent's stdout."""
    files: dict[str, str] = Field(default_factory=dict)
    """Command targets: the project folder after the run (path → text), for checks."""
    workdir: str | None = None
    meta: dict[str, Any] = Field(default_factory=dict)
    """e.g. conversation_id, inspector URL, skills invoked and how they were detected."""


class AgentSession(Protocol):
    async def send(self, turn: UserTurn) -> AgentReply: ...

    async def close(self) -> FinalRecord: ...


class AgentTarget(Protocol):
    """A `--target SPEC`; opens one fresh session per run."""

    spec: str

    async def open(self, case: Any, run_index: int) -> AgentSession: ...
