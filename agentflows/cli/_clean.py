"""`casegen clean`: drop old generation runs from the checkpoint store, and caches."""

import shutil
from pathlib import Path
from typing import Annotated

import typer

from ._app import app
from ._output import print_json, stdout

#: The response cache's default folder (`[tool.casegen] cache_dir` may put it elsewhere).
DEFAULT_CACHE = Path(".casegen/cache")


@app.command()
def clean(
    keep: Annotated[
        int, typer.Option("--keep", min=0, help="Generation runs to keep (newest first).")
    ] = 0,
    cache: Annotated[
        bool, typer.Option("--cache", help="Also delete the model response cache.")
    ] = False,
    checkpoints: Annotated[
        Path | None,
        typer.Option(
            "--checkpoints", help="Checkpoint store (default .casegen/checkpoints.sqlite)."
        ),
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object.")] = False,
) -> None:
    """Delete old generation runs (so `--resume` of them is no longer possible) and, with
    --cache, cached model answers. Each `generate` already keeps only its newest 20 runs."""
    # start-up: pydantic, yaml, tomllib and 104 casegen modules
    from ..generate import DEFAULT_CHECKPOINTS, prune_runs

    store = checkpoints or DEFAULT_CHECKPOINTS
    before = store.stat().st_size if store.is_file() else 0
    removed = prune_runs(store, keep=keep, vacuum=True) if store.is_file() else []
    after = store.stat().st_size if store.is_file() else 0
    cache_removed = cache and DEFAULT_CACHE.is_dir()
    if cache_removed:
        shutil.rmtree(DEFAULT_CACHE)
    if as_json:
        print_json(
            {
                "runs_removed": removed,
                "bytes_freed": before - after,
                "cache_removed": bool(cache_removed),
            }
        )
        return
    stdout.print(
        f"removed {len(removed)} generation run(s) from {store} "
        f"({(before - after) / 1e6:.1f} MB freed)"
        + ("; response cache deleted" if cache_removed else "")
    )


__all__ = ["clean"]
