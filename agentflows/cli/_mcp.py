"""`casegen mcp`: serve casegen's tools to coding agents over MCP (stdio)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from ._app import app


@app.command("mcp")
def mcp_command(
    project: Annotated[
        Path | None,
        typer.Option(
            "--project",
            "-p",
            help="Default project for the tools (default: the "
            "nearest project of the folder the server runs in).",
        ),
    ] = None,
    root: Annotated[
        Path | None,
        typer.Option(
            "--root",
            help="Folder every path argument must stay in (default: the folder the server "
            "runs in); the server runs there.",
        ),
    ] = None,
    allow_exec: Annotated[
        bool,
        typer.Option(
            "--allow-exec",
            help="Let run_cases use python: and command: targets, which run local code.",
        ),
    ] = False,
) -> None:
    """Serve casegen's tools to coding agents over MCP (stdio).

    For Claude Code, Cursor, VS Code and other MCP clients (docs/mcp.md). Tools:
    list_sources, generate_cases, validate_cases, repair_cases, run_cases, review_cases,
    triage_results.
    """
    from ..mcp_server import serve

    serve(project, root=root, allow_exec=allow_exec)
