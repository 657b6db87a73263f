"""Agents under test: one interface, several targets (`--target SPEC`)."""

from ._protocol import (
    AgentMessage,
    AgentReply,
    AgentSession,
    AgentTarget,
    FinalRecord,
    UserTurn,
)

__all__ = [
    "AgentMessage",
    "AgentReply",
    "AgentSession",
    "AgentTarget",
    "FinalRecord",
    "UserTurn",
]
