"""The `casegen` command line."""

from __future__ import annotations

import sys

from evalcore.errors import UserError

from . import (  # noqa: F401 (register)
    _assert,
    _generate,
    _mcp,
    _mutate,
    _repair,
    _review,
    _revise,
    _run,
    _score,
    _sources,
    _status,
    _triage,
    _validate,
)
from ._app import app
from ._output import stderr


def main(argv: list[str] | None = None) -> int:
    """Run the CLI and return its exit code.

    Usage errors exit 2 (typer/click), a `UserError` prints its message and hint without a
    traceback and exits 2; anything else is a bug and keeps its traceback.
    """
    try:
        app(args=argv, prog_name="casegen")
    except UserError as exc:
        stderr.print(f"[red]error:[/] {exc.message}", highlight=False)
        if exc.hint:
            stderr.print(f"  [dim]hint:[/] {exc.hint}", highlight=False)
        return exc.exit_code
    except SystemExit as exc:
        if exc.code is None:
            return 0
        return exc.code if isinstance(exc.code, int) else 1
    return 0


def run() -> None:
    sys.exit(main())


__all__ = ["app", "main", "run"]
