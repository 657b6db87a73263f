"""The cyclic garbage collector during a generation run: what was there before is frozen.

A run allocates many small objects (walks, events, drafts) on top of a large heap of
imported modules and the loaded project. Each full collection walked that whole heap
again (two per 43-skill run, a tenth of its CPU); frozen (`gc.freeze`) it is skipped, and
young collections run less often. Everything is handed back to the collector when the
outermost run ends (`gc.unfreeze`), so nothing frozen stays uncollectable afterwards.

Before the run, `casegen generate` keeps the collector off (`agentflows.cli._generate`):
importing and planning up to a run's first request collected about 140 times (one of them
full) and found almost nothing. A run turns it on for its own length, on the frozen heap,
and leaves it as it found it.
"""

from __future__ import annotations

import gc
import threading
from collections.abc import Iterator
from contextlib import contextmanager

#: Allocations between young collections during a run (CPython's default is 700).
RUN_THRESHOLD = 5000

_lock = threading.Lock()
_depth = 0
_saved: tuple[int, int, int] | None = None
_was_enabled = True


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
                if not _was_enabled:
                    gc.disable()
                _saved = None


__all__ = ["RUN_THRESHOLD", "collector_paused"]
