"""The generation checkpoint store: how much it writes, and how long it keeps runs.

A run writes its checkpoint once, when the graph exits (finished, failed or cancelled by
Ctrl-C), instead of after every step: `--resume` only ever needs the last state, and the
per-step copies of the whole case map made the SQLite saver twice as slow as the in-memory
one and grew the file by megabytes per run. A process killed outright (SIGKILL, power loss)
loses its run; re-running costs no more than the run itself.
"""

from __future__ import annotations

import contextlib
import sqlite3
from pathlib import Path

#: LangGraph durability mode for generation runs (see the module docstring).
DURABILITY = "exit"

#: Finished and interrupted runs kept in the store; older ones are deleted after each run.
DEFAULT_KEEP_RUNS = 20

_TABLES = ("checkpoints", "writes")


def run_ids(store: Path) -> list[str]:
    """Generation run ids in the store (they start with `gen-`), oldest first: in the order
    their first checkpoint was written (two runs started within one second have ids that
    sort by their random suffix, not by age); other threads in the same file
    (`review --interactive`) are left alone."""
    if not store.is_file():
        return []
    with contextlib.closing(sqlite3.connect(store)) as conn, conn:
        try:
            rows = conn.execute(
                "SELECT thread_id FROM checkpoints WHERE thread_id LIKE 'gen-%' "
                "GROUP BY thread_id ORDER BY MIN(rowid)"
            ).fetchall()
        except sqlite3.OperationalError:  # an empty file: the saver never set it up
            return []
    return [str(row[0]) for row in rows]


def prune_runs(store: Path, keep: int = DEFAULT_KEEP_RUNS, *, vacuum: bool = False) -> list[str]:
    """Delete all but the newest `keep` runs; returns the deleted run ids.

    `vacuum` also gives the freed pages back to the file system (slower; `casegen clean`)."""
    ids = run_ids(store)
    doomed = ids[: max(len(ids) - max(keep, 0), 0)]
    if not doomed and not vacuum:
        return []
    with contextlib.closing(sqlite3.connect(store)) as conn, conn:
        for table in _TABLES:
            try:
                conn.executemany(
                    f"DELETE FROM {table} WHERE thread_id = ?",
                    [(run_id,) for run_id in doomed],
                )
            except sqlite3.OperationalError:
                continue  # an older saver without this table
    if vacuum:
        with contextlib.closing(sqlite3.connect(store)) as conn, conn:
            conn.execute("VACUUM")
    return doomed


__all__ = ["DEFAULT_KEEP_RUNS", "DURABILITY", "prune_runs", "run_ids"]
