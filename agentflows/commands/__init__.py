"""The operations behind both faces of casegen, the command line and the MCP server.

Each function resolves its project and paths the same way for both, raises `UserError` for
input the caller can fix, and returns what `casegen <command> --json` prints (or the
object it is made from, with the exit code). The CLI adds terminal output; the MCP tools
return the JSON. Nothing heavy is imported here: each function imports what it needs.
"""

from __future__ import annotations

from ._progress import GenerateCounters
from ._project import explain_payload, resolve_project, sources_payload
from ._repair import repair_payload
from ._run import run_settings
from ._suite import (
    STALE,
    Mutation,
    Reported,
    doctor,
    mutate,
    report,
    score,
    score_exit,
    status,
    status_payload,
    suite_project,
)

__all__ = [
    "STALE",
    "GenerateCounters",
    "Mutation",
    "Reported",
    "doctor",
    "explain_payload",
    "mutate",
    "repair_payload",
    "report",
    "resolve_project",
    "run_settings",
    "score",
    "score_exit",
    "sources_payload",
    "status",
    "status_payload",
    "suite_project",
]
