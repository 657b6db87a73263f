"""The generation checkpoint store keeps the newest runs only, and `casegen clean` empties it."""

from __future__ import annotations

import asyncio
from pathlib import Path

from agentflows.generate import build_request, run_generation
from agentflows.generate._checkpoints import prune_runs, run_ids

BANK = Path(__file__).resolve().parents[1] / "examples" / "bank"


def _generate(tmp_path: Path, store: Path, keep: int) -> str:
    request = build_request(
        ["card_replace"], project=BANK, out=str(tmp_path / "out"), model="offline", force=True
    )
    report = asyncio.run(run_generation(request, checkpoints=store, keep_runs=keep))
    return report["run_id"]


def test_old_runs_are_pruned_and_the_newest_can_still_resume(tmp_path: Path) -> None:
    store = tmp_path / "ck.sqlite"
    made = [_generate(tmp_path, store, keep=2) for _ in range(3)]
    # the newest two by when they ran (runs started within one second: ids do not say)
    assert run_ids(store) == made[-2:]
    # A kept (finished) run answers `--resume` with its report, without drafting again.
    report = asyncio.run(run_generation(None, resume=made[-1], checkpoints=store))
    assert report["run_id"] == made[-1]


def test_prune_on_a_missing_store_is_a_no_op(tmp_path: Path) -> None:
    assert prune_runs(tmp_path / "none.sqlite", keep=0) == []


def test_clean_removes_runs_and_the_cache(tmp_path: Path, monkeypatch, run_cli_json) -> None:
    monkeypatch.chdir(tmp_path)
    store = tmp_path / ".casegen" / "checkpoints.sqlite"
    made = _generate(tmp_path, store, keep=5)
    cache = tmp_path / ".casegen" / "cache"
    cache.mkdir(parents=True)
    (cache / "entry.json").write_text("{}", encoding="utf-8")
    code, payload = run_cli_json("clean", "--cache")
    assert code == 0
    assert payload["runs_removed"] == [made]
    assert payload["cache_removed"] is True
    assert run_ids(store) == [] and not cache.exists()


def test_pruning_leaves_other_threads_in_the_store(tmp_path: Path) -> None:
    """`review --interactive` keeps its sessions in the same file: they are not runs."""
    import sqlite3

    store = tmp_path / "ck.sqlite"
    made = _generate(tmp_path, store, keep=5)
    with sqlite3.connect(store) as conn:
        row = conn.execute("SELECT * FROM checkpoints WHERE thread_id = ?", (made,)).fetchone()
        columns = [c[1] for c in conn.execute("PRAGMA table_info(checkpoints)")]
        review = dict(zip(columns, row, strict=True)) | {"thread_id": "review-1"}
        marks = ", ".join("?" * len(columns))
        conn.execute(
            f"INSERT INTO checkpoints ({', '.join(columns)}) VALUES ({marks})",
            list(review.values()),
        )
    assert prune_runs(store, keep=0) == [made]
    with sqlite3.connect(store) as conn:
        left = {r[0] for r in conn.execute("SELECT DISTINCT thread_id FROM checkpoints")}
    assert left == {"review-1"}


def test_the_runs_kept_are_the_newest_by_when_they_ran_not_by_id(tmp_path: Path) -> None:
    """Two runs started in the same second differ only by their random suffix: the one
    written last is the newest, whichever id sorts first."""
    import sqlite3

    store = tmp_path / "ck.sqlite"
    older, newer = "gen-20261202-000000-ffff", "gen-20261202-000000-0000"
    with sqlite3.connect(store) as conn:
        conn.execute("CREATE TABLE checkpoints (thread_id TEXT, checkpoint_id TEXT)")
        conn.executemany(
            "INSERT INTO checkpoints VALUES (?, ?)", [(older, "1"), (newer, "1"), (older, "2")]
        )
    assert run_ids(store) == [older, newer]
    assert prune_runs(store, keep=1) == [older]
    assert run_ids(store) == [newer]


def _tamper(store: Path, run_id: str, value: object) -> None:
    """Put `value` (raw msgpack extension data) into the run's stored request."""
    import sqlite3

    import ormsgpack

    with sqlite3.connect(store) as conn:
        rowid, blob = conn.execute(
            "SELECT rowid, checkpoint FROM checkpoints WHERE thread_id = ? "
            "ORDER BY rowid DESC LIMIT 1",
            (run_id,),
        ).fetchone()
        checkpoint = ormsgpack.unpackb(
            blob, ext_hook=ormsgpack.Ext, option=ormsgpack.OPT_NON_STR_KEYS
        )
        checkpoint["channel_values"]["request"] = value
        conn.execute(
            "UPDATE checkpoints SET checkpoint = ? WHERE rowid = ?",
            (ormsgpack.packb(checkpoint, option=ormsgpack.OPT_NON_STR_KEYS), rowid),
        )


def test_a_tampered_store_runs_no_code_on_resume(tmp_path: Path) -> None:
    """msgpack extension values name a function to call on load: `os.system` here."""
    import ormsgpack
    import pytest

    from evalcore.errors import UserError

    store = tmp_path / "ck.sqlite"
    run_id = _generate(tmp_path, store, keep=5)
    marker = tmp_path / "ran"
    call = ormsgpack.packb(["os", "system", [f"touch {marker}"]])
    _tamper(store, run_id, ormsgpack.Ext(1, call))  # EXT_CONSTRUCTOR_POS_ARGS
    with pytest.raises(UserError, match=r"os\.system, which is not data") as caught:
        asyncio.run(run_generation(None, resume=run_id, checkpoints=store))
    assert not marker.exists()
    assert "casegen clean" in (caught.value.hint or "")


def test_a_store_holding_other_values_is_a_clear_error(tmp_path: Path) -> None:
    import pytest

    from evalcore.errors import UserError

    store = tmp_path / "ck.sqlite"
    run_id = _generate(tmp_path, store, keep=5)
    _tamper(store, run_id, ["not", "a", "request"])
    with pytest.raises(UserError, match="does not hold a generation request"):
        asyncio.run(run_generation(None, resume=run_id, checkpoints=store))
