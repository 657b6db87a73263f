"""The `casegen` command line."""

from __future__ import annotations

import atexit
import contextlib
import copy
import importlib
import os
import sys
import threading
from typing import Any

import typer

from evalcore.errors import UserError

from ._app import app as _app
from ._app import polish_help
from ._coerce import install as _plain_coercion
from ._output import ClickException, is_no_args_help, print_error
from ._rich_help import import_rich_help, wants_help

EXIT_INTERRUPTED = 130

#: Every command, in the order `--help` lists them; `_<name>` is the module that registers it.
COMMANDS = (
    *("assert", "clean", "doctor", "generate", "mcp", "mutate", "repair", "report"),
    *("review", "revise", "run", "score", "sources", "status", "triage", "validate"),
)


def _register(names: tuple[str, ...] = COMMANDS) -> None:
    """Import the modules of these commands (each registers its command on the app once):
    a command's module imports what its options need, so a light command loads only its
    own."""
    for name in names:
        importlib.import_module(f"{__name__}._{name}")


def __getattr__(name: str) -> Any:
    """`agentflows.cli.app`: the application with every command registered."""
    if name == "app":
        _register()
        return _app
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def main(argv: list[str] | None = None) -> int:
    """Run the CLI and return its exit code.

    Usage errors exit 2 (typer/click), a `UserError` prints its message and hint without a
    traceback and exits 2; anything else is a bug and keeps its traceback. Under `--json`
    an error is the one JSON object `{"error", "hint", "exit_code"}` on stdout.
    """
    _tolerate_surrogates()
    _plain_coercion()
    args = list(sys.argv[1:] if argv is None else argv)
    as_json = "--json" in (args[: args.index("--")] if "--" in args else args)
    try:
        if wants_help(args):
            import_rich_help()
        command = _command_tree(args)
        polish_help(command)
        result = command(args=args, prog_name="casegen", standalone_mode=False)
    except UserError as exc:
        print_error(exc.message, exc.hint, exc.exit_code, as_json=as_json)
        return exc.exit_code
    except ClickException as exc:
        if is_no_args_help(exc):
            if as_json:
                print_error("no command given", "see `casegen --help`", 2, as_json=True)
            else:
                exc.show()
            return 2
        command = exc.ctx.command_path if getattr(exc, "ctx", None) else "casegen"
        hint = f"see `{command} --help`"
        print_error(exc.format_message(), hint, exc.exit_code, as_json=as_json, usage=exc)
        return exc.exit_code
    except typer.Abort:
        print_error("aborted", None, 1, as_json=as_json)
        return 1
    except BrokenPipeError:
        return 1
    except SystemExit as exc:
        if exc.code is None:
            return 0
        return exc.code if isinstance(exc.code, int) else 1
    return result if isinstance(result, int) else 0


def _command_tree(args: list[str]) -> typer.main.TyperGroup:
    """The click tree for these arguments: every command for `--help`, `--version` and an
    unknown name (its "did you mean"), else the root with only the named command, which
    parses and runs the same way; building every command's parameters costs more than a
    light command's own work."""
    name = args[0] if args else ""
    _register((name,) if name in COMMANDS else COMMANDS)
    chosen = [
        info
        for info in _app.registered_commands
        if info.callback is not None
        and (info.name or typer.main.get_command_name(info.callback.__name__)) == name
    ]
    if not chosen:
        return typer.main.get_command(_app)  # type: ignore[return-value]
    only = copy.copy(_app)
    only.registered_commands = chosen
    return typer.main.get_command(only)  # type: ignore[return-value]


def _tolerate_surrogates() -> None:
    """A lone surrogate in a case (`"\\ud800"`) prints as `\\ud800` instead of crashing
    the terminal output; JSON output escapes it itself (`_output.json_text`)."""
    for stream in (sys.stdout, sys.stderr):
        reconfigure = getattr(stream, "reconfigure", None)
        if reconfigure is not None:
            with contextlib.suppress(ValueError, OSError):  # a detached or closed stream
                reconfigure(errors="backslashreplace")


def run() -> None:
    """The `casegen` entry point: `main`, then a quick exit (`_exit_now`)."""
    code = main()
    if code in (EXIT_INTERRUPTED, EXIT_INTERRUPTED + 13):
        # Ctrl-C (130) or SIGTERM (143): everything worth keeping is written and reported;
        # do not wait for the interpreter to tear down clients and threads.
        _flush()
        os._exit(code)
    _exit_now(code)


def _exit_now(code: int) -> None:
    """Exit without the interpreter's teardown once the command is done: freeing every
    module and object of a command that loaded the model client and LangGraph (2,000
    modules) took longer than writing its cases, and the user waited for it. The exit
    handlers still run (log handlers, a tracer's last batch), and output is flushed; with
    a non-daemon thread still running, the normal exit waits for it instead."""
    main_thread = threading.main_thread()
    if any(t is not main_thread and not t.daemon for t in threading.enumerate()):
        sys.exit(code)
    atexit._run_exitfuncs()
    _flush()
    os._exit(code)


def _flush() -> None:
    with contextlib.suppress(OSError, ValueError):
        sys.stdout.flush()
        sys.stderr.flush()


__all__ = ["app", "main", "run"]
