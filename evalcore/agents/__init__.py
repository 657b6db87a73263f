"""Agents under test: one interface, several targets (`--target SPEC`), and the process
helpers a check that runs a command shares with the command target."""

from ._command import discard_workdir
from ._fixture_context import CONTEXT_KEY, SKILLS_PROJECT_KEY, FixtureContext, skill_sources
from ._procs import child_env, exec_settings, kill_tree, new_token
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
    "CONTEXT_KEY",
    "SKILLS_PROJECT_KEY",
    "AgentMessage",
    "AgentReply",
    "AgentSession",
    "AgentTarget",
    "FinalRecord",
    "FixtureContext",
    "UserTurn",
    "child_env",
    "discard_workdir",
    "exec_settings",
    "kill_tree",
    "new_token",
    "skill_sources",
]
