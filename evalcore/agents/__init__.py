"""Agents under test: one interface, several targets (`--target SPEC`)."""

from ._protocol import (
    AgentMessage,
    AgentReply,
    AgentSession,
    AgentTarget,
    FinalRecord,
    UserTurn,
)
from ._targets import parse_target as parse_target

__all__ = [
    "AgentMessage",
    "AgentReply",
    "AgentSession",
    "AgentTarget",
    "FinalRecord",
    "UserTurn",
]
