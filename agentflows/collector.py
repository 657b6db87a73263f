"""The cyclic garbage collector during a generation run: what was there before is frozen.

A run allocates many small objects (walks, events, drafts) on top of a large heap of
imported modules and the loaded project. Each full collection walked that whole heap
again (two per 43-skill run, a tenth of its CPU); frozen (`gc.freeze`) it is skipped, and
young collections run less often. Everything is handed back to the collector when the
outermost run ends (`gc.unfreeze`), so nothing frozen stays uncollectable afterwards.

Before the run, `casegen generate` keeps the collector off (`off_until_run`): importing and
planning up to a run's first request collected about 140 times (one of them full) and found
almost nothing. A run turns it on for its own length, on the frozen heap; after the run it
stays on when only that start-up pause had turned it off (what comes after, `--pr --run`'s
case runs among it, allocates as any program does), else it is left as the run found it.
"""

from __future__ import annotations

import functools
import gc
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import ParamSpec, TypeVar

P = ParamSpec("P")
R = TypeVar("R")

#: Allocations between young collections during a run (CPython's default is 700).
RUN_THRESHOLD = 5000

_lock = threading.Lock()
_depth = 0
_saved: tuple[int, int, int] | None = None
_was_enabled = True
_start_up_pause = False
"""The collector is off only for `off_until_run`'s start-up: the run leaves it on after."""


@contextmanager
def collector_paused() -> Iterator[None]:
    """Freeze the heap and space out young collections until the outermost run ends
    (runs may nest or overlap in one process: only the last one out restores)."""
    global _depth, _saved, _was_enabled
    with _lock:
        if _depth == 0:
            _saved = gc.get_threshold()
            _was_enabled = gc.isenabled()
            gc.freeze()
            gc.set_threshold(max(_saved[0], RUN_THRESHOLD), *_saved[1:])
            gc.enable()
        _depth += 1
    try:
        yield
    finally:
        with _lock:
            _depth -= 1
            if _depth == 0:
                assert _saved is not None
                gc.set_threshold(*_saved)
                gc.unfreeze()
                if not _was_enabled and not _start_up_pause:
                    gc.disable()
                _saved = None


def off_until_run(command: Callable[P, R]) -> Callable[P, R]:
    """Run `command` with the collector off until a run turns it on (`collector_paused`),
    and hand it back at the end as it was found."""

    @functools.wraps(command)
    def collector_off(*args: P.args, **kwargs: P.kwargs) -> R:
        global _start_up_pause
        collecting = gc.isenabled()
        gc.disable()
        _start_up_pause = collecting
        try:
            return command(*args, **kwargs)
        finally:
            _start_up_pause = False
            if collecting:
                gc.enable()

    return collector_off


__all__ = ["RUN_THRESHOLD", "collector_paused", "off_until_run"]
