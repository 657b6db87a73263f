"""Why a run could not be carried out: the agent, not the case, is at fault.

The runner reports a run that raised one of these as *errored* (harness failure), never as
failed, so an unreachable server never reads as a broken agent. They are `UserError`s because
the person can fix them (start the server, fix the URL) and they print without a traceback when
nothing catches them.
"""

from __future__ import annotations

from ..errors import UserError


class AgentError(UserError):
    """The agent under test could not take part in the run."""


class AgentUnavailable(AgentError):
    """The agent could not be reached, or did not answer in time."""


class AgentTimeout(AgentUnavailable):
    """The agent took longer than its time limit (a command agent, one HTTP request)."""


class AgentProtocolError(AgentError):
    """The agent answered, but not in the expected shape (bad status, bad JSON)."""


__all__ = ["AgentError", "AgentProtocolError", "AgentTimeout", "AgentUnavailable"]
