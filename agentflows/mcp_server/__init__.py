"""casegen's MCP server: the CLI's commands as typed tools for coding agents (stdio).

    casegen mcp                      # serve the project of the current folder
    casegen mcp --project examples/bank
    casegen mcp --root ~/work/agent --allow-exec   # paths confined to the root; python:/command: ok

Tools: list_sources, explain_skill, generate_cases, validate_cases, repair_cases, run_cases,
review_cases, triage_results, score_suite, mutate_suite, case_status, report_results and
doctor (docs/mcp.md). Each returns the JSON its CLI command prints with `--json` as
structured content; problems the caller can fix come back as tool errors with the CLI's
message and hint, and the server keeps serving.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING

from evalcore.errors import UserError

from ._guard import Confinement
from ._quick import quick_front

if TYPE_CHECKING:
    from mcp.server.mcpserver import MCPServer

SERVER_NAME = "casegen"
INSTRUCTIONS = (
    "casegen drafts, checks and runs test cases for conversational agents (Rasa Mantle "
    "scenarios, Anychat test cases, base44 evals). Typical loop: list_sources to learn the "
    "real ids; generate_cases for a skill or playbook; validate_cases and repair_cases on the "
    "files; review_cases for quality; run_cases against the agent; triage_results on the "
    "results folder to see which turn broke and whether to fix the Skill, the Instruction, "
    "the Scenario or the Tool; report_results summarises a results folder. Whether the cases "
    "are any good: explain_skill (what casegen understood of a skill), score_suite, "
    "mutate_suite (which broken agents the suite catches) and case_status (which generated "
    "cases went stale); doctor checks the model endpoint. Paths are relative to the folder "
    "the server runs in."
)


def build_server(
    project: Path | None = None, *, root: Path | None = None, allow_exec: bool = False
) -> MCPServer:
    """The server with every tool registered; `project` is the default project.

    Args:
        root: the folder every path argument must stay in (default: the working folder).
        allow_exec: let `run_cases` use `python:` and `command:` targets (local code).
    """
    try:
        from mcp.server.mcpserver import MCPServer  # start-up: mcp, pydantic, click
    except ImportError:
        raise UserError(
            "casegen mcp needs the MCP Python SDK 2.x",
            hint="pip install 'mcp>=2'",
        ) from None
    from importlib.metadata import PackageNotFoundError, version  # start-up: 47 modules

    from ._tools import register  # start-up: mcp, pydantic, yaml and 121 casegen modules

    try:
        casegen_version = version("casegen")
    except PackageNotFoundError:
        casegen_version = ""
    server = MCPServer(
        SERVER_NAME, instructions=INSTRUCTIONS, version=casegen_version, log_level="WARNING"
    )
    register(server, project, Confinement(root, allow_exec=allow_exec))
    return server


def serve(
    project: Path | None = None, *, root: Path | None = None, allow_exec: bool = False
) -> None:
    """Serve over stdio until the client closes the connection.

    With `root`, the server runs in that folder, so relative paths are taken from it.
    """
    if root is not None:
        if not root.is_dir():
            raise UserError(f"root folder does not exist: {root}")
        project = project.resolve() if project is not None else None
        os.chdir(root)
    if project is not None and not project.is_dir():
        raise UserError(f"project folder does not exist: {project}")
    build_server(project, root=Path.cwd(), allow_exec=allow_exec).run("stdio")


__all__ = ["INSTRUCTIONS", "SERVER_NAME", "build_server", "quick_front", "serve"]
