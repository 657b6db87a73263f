"""Start-up, `validate` and checkpoint-store figures, each next to its goal.

(a) start-up: process CPU (user + system) of `casegen --help`, `validate` and `sources` in
    a fresh interpreter, best of five; goal ≤ 0.25 s. For scale, the same for an
    interpreter that only imports what every command used to load (LangGraph, GitPython).
(b) validate: 2,016 Mantle scenario files (copies of examples/bank's, in a temporary folder)
    with `--project`; files per second, goal ≥ 2,000. Then the same files under a
    `generated_cases/manifest.json` that names their project, without `--project`: the
    manifest must cost once per command, so the rate stays ≥ 2,000 files/s (linear).
(c) checkpoints: offline `generate all` on examples/bank through the SQLite store against
    the same flow on LangGraph's in-memory saver, best of three each; goal ratio ≤ 1.2.
    Bytes added to the store per run are reported too.

    python -m benchmarks speed [--files 2016]
"""

from __future__ import annotations

import contextlib
import json
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from .generation import Result

REPO = Path(__file__).resolve().parents[1]
BANK = REPO / "examples" / "bank"


def _cpu(argv: list[str], repeats: int = 5) -> float:
    best = float("inf")
    for _ in range(repeats):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        subprocess.run(argv, cwd=REPO, capture_output=True, check=False)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        used = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
        best = min(best, used)
    return best


def startup() -> Result:
    python = sys.executable
    cli = [python, "-c", _CLI]
    commands = {
        "--help": [*cli, "--help"],
        "validate": [*cli, "validate", "examples/bank/eval", "--project", "examples/bank"],
        "sources": [*cli, "sources", "--project", "examples/bank"],
    }
    bare = _cpu([python, "-c", "pass"])
    old = _cpu([python, "-c", "import langgraph.graph, git, typer, rich"])
    lines, ok = [], True
    for name, argv in commands.items():
        used = _cpu(argv)
        ok &= used <= 0.25
        lines.append(
            f"casegen {name}: {used:.3f} s CPU (goal ≤ 0.25 s) · "
            f"{used / old:.2f}× the CPU of importing langgraph+git+typer+rich alone"
        )
    lines.append(f"for scale: bare interpreter {bare:.3f} s · langgraph+git+typer+rich {old:.3f} s")
    return Result("start-up", ok, lines)


_CLI = "import sys; from agentflows.cli import main; sys.exit(main(sys.argv[1:]))"


@contextlib.contextmanager
def _scenario_copies(count: int) -> Iterator[Path]:
    sources = sorted((BANK / "eval" / "scenarios").glob("*.yml"))
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp) / "generated_cases"
        folder = root / "mantle" / "bench"
        folder.mkdir(parents=True)
        for i in range(count):
            source = sources[i % len(sources)]
            shutil.copyfile(source, folder / f"{source.stem}_{i:05d}.yml")
        yield root


def _rate(paths: list[Path], project: Path | None) -> tuple[float, int]:
    from evalcore.validation import validate_paths

    start = time.perf_counter()
    reports = validate_paths(paths, project=project)
    return len(reports) / (time.perf_counter() - start), len(reports)


def validate_rate(count: int = 2016) -> Result:
    from evalcore.manifest import Manifest, ManifestEntry, save_manifest

    with _scenario_copies(count) as root:
        _rate([root], BANK)  # warm-up: schemas and the project load once per process
        with_project, files = _rate([root], BANK)
        entries = {
            path.relative_to(root).as_posix(): ManifestEntry(
                dialect="mantle",
                source="bench",
                behavior=path.stem,
                type="happy_path",
                engine="offline",
                generated_at="2026-01-01T00:00:00Z",
                run_id="bench",
                project=str(BANK),
                content_sha256="0" * 64,
            )
            for path in sorted(root.rglob("*.yml"))
        }
        save_manifest(root / "manifest.json", Manifest(cases=entries))
        with_manifest, manifest_files = _rate([root], None)
    return Result(
        "validate",
        with_project >= 2000 and with_manifest >= 2000,
        [
            f"{files} Mantle files, --project: {with_project:.0f} files/s (goal ≥ 2,000)",
            f"{manifest_files} files beside generated_cases/manifest.json ({len(entries)} "
            f"entries), no --project: {with_manifest:.0f} files/s (goal ≥ 2,000, linear)",
        ],
    )


async def _generate(saver: str, tmp: Path) -> tuple[float, int]:
    from agentflows.generate import build_request, run_generation

    request = build_request(
        ["all"], project=BANK, out=str(tmp / "out"), model="offline", concurrency=4, force=True
    )
    store = tmp / f"ck-{saver}.sqlite"
    with _in_memory() if saver == "memory" else contextlib.nullcontext():
        before = store.stat().st_size if store.is_file() else 0
        start = time.perf_counter()
        await run_generation(request, checkpoints=store)
        elapsed = time.perf_counter() - start
    grown = (store.stat().st_size if store.is_file() else 0) - before
    return elapsed, grown


@contextlib.contextmanager
def _in_memory() -> Iterator[None]:
    """The same flow on LangGraph's in-memory saver (the baseline the store is held to)."""
    from langgraph.checkpoint.memory import InMemorySaver
    from langgraph.checkpoint.sqlite import aio

    @contextlib.asynccontextmanager
    async def memory(_: str) -> Any:
        yield InMemorySaver()

    real = aio.AsyncSqliteSaver.from_conn_string
    aio.AsyncSqliteSaver.from_conn_string = memory  # type: ignore[method-assign,assignment]
    try:
        yield
    finally:
        aio.AsyncSqliteSaver.from_conn_string = real  # type: ignore[method-assign]


async def checkpoints(repeats: int = 3) -> Result:
    with tempfile.TemporaryDirectory() as tmp:
        await _generate("memory", Path(tmp))  # warm-up (imports, project parse caches)
        times: dict[str, list[float]] = {"memory": [], "sqlite": []}
        grown: list[int] = []
        for _ in range(repeats):  # interleaved, so load spikes hit both
            for saver in ("memory", "sqlite"):
                elapsed, size = await _generate(saver, Path(tmp))
                times[saver].append(elapsed)
                if saver == "sqlite":
                    grown.append(size)
    memory, sqlite = min(times["memory"]), min(times["sqlite"])
    ratio = sqlite / memory
    return Result(
        "SQLite checkpointer",
        ratio <= 1.2,
        [
            f"offline generate all, bank: SQLite {sqlite:.3f} s · in-memory {memory:.3f} s · "
            f"ratio {ratio:.2f} (goal ≤ 1.2), best of {repeats}, interleaved",
            f"store growth per run: {json.dumps(grown)} bytes (older runs pruned: newest 20 kept)",
        ],
    )


async def main(argv: list[str]) -> int:
    import argparse

    parser = argparse.ArgumentParser(prog="python -m benchmarks speed")
    parser.add_argument("--files", type=int, default=2016)
    args = parser.parse_args(argv)
    results = [startup(), validate_rate(args.files), await checkpoints()]
    for result in results:
        print(result.render())
    return 0 if all(r.ok for r in results) else 1
