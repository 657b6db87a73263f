"""`casegen mcp`: serve casegen's tools to coding agents over MCP (stdio)."""

import os
import signal
import sys
from pathlib import Path
from types import FrameType
from typing import Annotated

import typer

from ._app import app

#: Shown on stderr when a person starts the server in a terminal, where it otherwise looks
#: hung: it reads JSON-RPC from stdin and answers nothing typed by hand.
BANNER = (
    "casegen mcp: an MCP server on stdio, waiting for a client (Claude Code, Cursor, VS Code…)."
    "\nIt reads JSON-RPC messages on stdin, not typed commands: add it to your client's MCP "
    "settings (docs/mcp.md).\nCtrl-C quits."
)
EXIT_INTERRUPTED = 130


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
    _exit_promptly_on_interrupt()
    if sys.stdin.isatty():
        sys.stderr.write(BANNER + "\n")
        sys.stderr.flush()
    front = None
    if not sys.stdin.isatty() and os.environ.get("CASEGEN_MCP_QUICK", "1") != "0":
        from ..mcp_server import quick_front  # start-up: hashlib and 2 casegen modules

        options = {"project": project and str(project.resolve()), "root": root and str(root)}
        front = quick_front({**options, "allow_exec": allow_exec})
    from ..mcp_server import serve  # start-up: hashlib and 2 casegen modules

    try:
        serve(project, root=root, allow_exec=allow_exec)
    finally:
        if front is not None:
            front.finish()


def _exit_promptly_on_interrupt() -> None:
    """Ctrl-C ends the server at once (exit 130). The stdio transport reads stdin in a
    worker thread that a KeyboardInterrupt cannot stop, so the default handling waits for
    the next line or an end of file; there is nothing to save: each tool call writes its
    files atomically."""

    def _quit(signum: int, frame: FrameType | None) -> None:
        try:
            sys.stderr.write("casegen mcp: interrupted\n")
            sys.stderr.flush()
        finally:
            os._exit(EXIT_INTERRUPTED)

    signal.signal(signal.SIGINT, _quit)
