"""`casegen generate`'s run in a terminal: the progress line, Ctrl-C and SIGTERM."""

import signal
import threading
import warnings
from typing import TYPE_CHECKING, Any

import typer

from ..commands import GenerateCounters
from ._output import print_json, stderr

if TYPE_CHECKING:
    from ..generate import GenerateRequest

EXIT_INTERRUPTED = 130
EXIT_TERMINATED = 143
#: The model endpoint is unreachable or refused the key (also `EndpointError`'s exit code).
EXIT_ENDPOINT = 3


def exit_code(report: dict[str, Any]) -> int:
    """0 every planned case written; 3 drafting stopped on the endpoint; else 1."""
    if report.get("halted"):
        return EXIT_ENDPOINT
    return 0 if not report["failed"] and not report["conflicts"] else 1


def _run_flow(
    request: "GenerateRequest | None", *, resume: str | None, as_json: bool, resumable: bool = True
) -> dict[str, Any]:
    """Run the flow with a progress line; Ctrl-C says how to resume (when resuming can)."""
    import asyncio  # start-up: asyncio

    from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn  # start-up: rich

    # start-up: pydantic, yaml, tomllib and 104 casegen modules
    from ..generate import run_generation

    progress = (
        None
        if as_json
        else Progress(
            TextColumn("{task.description}"),
            BarColumn(),
            TimeElapsedColumn(),
            console=stderr,
            transient=True,
        )
    )
    counters = GenerateCounters(progress)
    run_ids: list[str] = []

    def started(run_id: str) -> None:
        # At the start and on stderr (a terminal or not): a run killed before its end can
        # still be resumed by this id.
        run_ids.append(run_id)
        stderr.print(
            f"run {run_id}"
            + (f" (if interrupted: casegen generate --resume {run_id})" if resumable else ""),
            highlight=False,
        )

    # LangGraph holds each step behind the run's concurrency semaphore: a step cancelled
    # by Ctrl-C before it got the semaphore is a coroutine never started, which Python
    # reports when it is collected, after the run has stopped. Nothing is lost (the
    # checkpoint has every finished step), so the warning is noise at the user's prompt.
    warnings.filterwarnings(
        "ignore", message="coroutine 'arun_with_retry' was never awaited", category=RuntimeWarning
    )
    terminated = _TermAsInterrupt()
    try:
        if progress is not None:
            progress.start()
        with terminated:
            return asyncio.run(
                run_generation(request, resume=resume, on_update=counters, on_start=started)
            )
    except KeyboardInterrupt:
        if progress is not None:
            progress.stop()
        code = EXIT_TERMINATED if terminated.seen else EXIT_INTERRUPTED
        command = f"casegen generate --resume {run_ids[0]}" if run_ids and resumable else None
        if as_json:
            print_json(
                {
                    "error": "terminated" if terminated.seen else "interrupted",
                    "hint": f"finish it with: {command}" if command else None,
                    "exit_code": code,
                    "run_id": run_ids[0] if run_ids else None,
                    "interrupted": True,
                }
            )
        else:
            stderr.print(
                f"[yellow]{'terminated' if terminated.seen else 'interrupted'}[/]"
                f"{f' — finish it with: {command}' if command else ''}"
            )
        raise typer.Exit(code) from None
    finally:
        if progress is not None:
            progress.stop()


class _TermAsInterrupt:
    """While a run is on, SIGTERM (a CI timeout, `kill`) stops it the way Ctrl-C does: the
    flow exits through its checkpoint and the run id is reported (exit 143)."""

    def __init__(self) -> None:
        self.seen = False
        self._previous: Any = None

    def _handle(self, signum: int, frame: Any) -> None:
        self.seen = True
        signal.raise_signal(signal.SIGINT)  # asyncio's own Ctrl-C path cancels the flow

    def __enter__(self) -> "_TermAsInterrupt":
        if threading.current_thread() is threading.main_thread():
            self._previous = signal.signal(signal.SIGTERM, self._handle)
        return self

    def __exit__(self, *exc: object) -> None:
        if self._previous is not None:
            signal.signal(signal.SIGTERM, self._previous)
