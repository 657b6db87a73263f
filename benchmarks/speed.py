"""Start-up, `validate`, checkpoint-store and generation figures, each next to its goal.

The machine these run on is shared, so every rate is per CPU second of the process (wall
time, which counts other people's work too, is printed beside it).

(a) start-up: process CPU (user + system) of `casegen --help`, `validate` and `sources` in
    a fresh interpreter with the project's bytecode written, best of five; goal ≤ 0.25 s.
    Beside each, its floor (an interpreter importing only the libraries the command needs)
    and, for scale, an interpreter that imports what every command used to load
    (LangGraph, GitPython).
(b) validate: 2,016 Mantle scenario files (copies of examples/bank's, in a temporary
    folder) with `--project`; files per CPU second, goal ≥ 2,000. Then the same files
    under a `generated_cases/manifest.json` that names their project, without
    `--project`: the manifest must cost once per command, so the rate stays ≥ 2,000
    (linear). In-process `validate_paths` after a warm-up, five runs of each interleaved:
    the median, with the range beside it.
(c) checkpoints: offline `generate all` on examples/bank (the default flow, verification
    included) through the SQLite store against the same flow on LangGraph's in-memory
    saver, CPU seconds, best of three each, interleaved; goal ratio ≤ 1.2. Bytes added to
    the store per run are reported too.
(d) offline `generate all` on examples/bank and on a 43-skill project the benchmark writes
    (`benchmarks/synthetic.py`), without verification, in-process after a warm-up,
    interleaved, medians of three: cases per CPU second, goal ≥ 200 on both, and a case of
    the big project costs at most 1.25× a case of bank (linear).
(e) an identical second LLM run (`benchmarks/rerun.py`): 0 model calls, exit 0,
    byte-identical files.

    Beside the rates, the CPU per file of each stage (read, parse, schema gate, lint, the
    rest), each measured alone over the same files.

    python -m benchmarks speed [--files 2016] [--skills 43] [--only validate generation ...]
        [--against DIR]   (start-up side by side with another tree: `benchmarks/startup.py`)
"""

from __future__ import annotations

import contextlib
import json
import shutil
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from .generation import Result
from .rerun import cached_rerun
from .startup_figures import startup

REPO = Path(__file__).resolve().parents[1]
BANK = REPO / "examples" / "bank"


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


def _rate(paths: list[Path], project: Path | None) -> tuple[float, int, float]:
    """Files per CPU second of this process (the machine is shared: wall time counts other
    people's work too), the file count, and files per wall second."""
    from evalcore.validation import validate_paths

    cpu, wall = time.process_time(), time.perf_counter()
    reports = validate_paths(paths, project=project)
    cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
    return len(reports) / cpu, len(reports), len(reports) / wall


def _spread(rates: list[float]) -> str:
    return f"median of {len(rates)}, range {min(rates):.0f}–{max(rates):.0f}"


def validate_rate(count: int = 2016, repeats: int = 5) -> Result:
    """`validate_paths` over `count` copies of bank's scenarios, with `--project` and beside
    a manifest without it, `repeats` runs of each, interleaved, after a warm-up of each (the
    first command of a process compiles the schema's fast check): the median rate, and the
    range so the noise of the shared machine shows."""
    import statistics

    from evalcore.manifest import Manifest, ManifestEntry, save_manifest

    with _scenario_copies(count) as root:
        bare = Path(str(root) + "-bare")  # the same files, no manifest above them
        shutil.copytree(root, bare)
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
        try:
            _rate([bare], BANK), _rate([root], None)  # warm-up
            runs: dict[str, list[tuple[float, int, float]]] = {"project": [], "manifest": []}
            for _ in range(repeats):
                runs["project"].append(_rate([bare], BANK))
                runs["manifest"].append(_rate([root], None))
            stages = _validate_stages(bare, BANK)
        finally:
            shutil.rmtree(bare, ignore_errors=True)
    project_rates = [r for r, _, _ in runs["project"]]
    manifest_rates = [r for r, _, _ in runs["manifest"]]
    with_project = statistics.median(project_rates)
    with_manifest = statistics.median(manifest_rates)
    files, manifest_files = runs["project"][0][1], runs["manifest"][0][1]
    project_wall = statistics.median(w for _, _, w in runs["project"])
    manifest_wall = statistics.median(w for _, _, w in runs["manifest"])
    return Result(
        "validate",
        with_project >= 2000 and with_manifest >= 2000,
        [
            f"{files} Mantle files, --project: {with_project:.0f} files per CPU second "
            f"(goal ≥ 2,000; {_spread(project_rates)}; {project_wall:.0f} per wall second)",
            f"{manifest_files} files beside generated_cases/manifest.json ({len(entries)} "
            f"entries), no --project: {with_manifest:.0f} files per CPU second (goal ≥ 2,000, "
            f"linear; {_spread(manifest_rates)}; {manifest_wall:.0f} per wall second)",
            stages,
        ],
    )


def _validate_stages(folder: Path, project: Path) -> str:
    """CPU per file of each stage `validate` goes through, measured one stage at a time
    over every file of `folder` (so a stage's figure includes no other stage's work); the
    rest (discovery, paths, reports) is the full run's CPU less the stages."""
    from evalcore._yamllines import read_lines
    from evalcore._yamlquick import resolve_plain
    from evalcore.definitions import load_project
    from evalcore.dialects import get_dialect
    from evalcore.documents import parse_text
    from evalcore.limits import DEFAULT_LIMITS
    from evalcore.validation import validate_paths
    from evalcore.yamlio import deferred_loader

    files = sorted(folder.rglob("*.yml"))
    mantle, loaded = get_dialect("mantle"), load_project(project)
    texts = [file.read_bytes().decode("utf-8") for file in files]

    def cpu(step: Any, items: list[Any]) -> float:
        start = time.process_time()
        for item in items:
            step(item)
        return (time.process_time() - start) / len(items) * 1e6

    docs = [parse_text(text, "yaml", limits=DEFAULT_LIMITS).data for text in texts]
    depth = DEFAULT_LIMITS.max_depth
    stages = {
        "read": cpu(lambda file: file.read_bytes().decode("utf-8"), files),
        # What the line reader spares a file it takes (a declined file still pays it).
        "libyaml compose": cpu(lambda text: deferred_loader(text).get_single_node(), texts),
        "line reader": cpu(lambda text: read_lines(text, depth, resolve_plain), texts),
        "parse (checks + values)": cpu(
            lambda text: parse_text(text, "yaml", limits=DEFAULT_LIMITS), texts
        ),
        "schema gate": cpu(mantle.schema_findings, docs),
        "lint": cpu(lambda data: mantle.lint(data, loaded), docs),
    }
    start = time.process_time()
    validate_paths([folder], project=project)
    total = (time.process_time() - start) / len(files) * 1e6
    rest = total - sum(v for k, v in stages.items() if k not in ("libyaml compose", "line reader"))
    parts = " · ".join(f"{name} {value:.0f}" for name, value in stages.items())
    return f"µs of CPU per file: {parts} · the rest {rest:.0f} · whole run {total:.0f}"


async def _generate(saver: str, tmp: Path, verify: bool = True) -> tuple[float, int]:
    from agentflows.generate import build_request, run_generation

    options = {} if verify else {"verify": False}
    request = build_request(
        ["all"],
        project=BANK,
        out=str(tmp / "out"),
        model="offline",
        concurrency=4,
        force=True,
        **options,
    )
    store = tmp / f"ck-{saver}.sqlite"
    with _in_memory() if saver == "memory" else contextlib.nullcontext():
        before = store.stat().st_size if store.is_file() else 0
        start = time.process_time()  # CPU of this process (the store writes in a thread)
        await run_generation(request, checkpoints=store)
        elapsed = time.process_time() - start
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


async def checkpoints(repeats: int = 3, verify: bool = True) -> Result:
    """`verify`: the runs play each draft (the default flow, as `casegen generate`); without
    it the flow's own cost is a larger share, so the store's share shows more."""
    with tempfile.TemporaryDirectory() as tmp:
        await _generate("memory", Path(tmp), verify)  # warm-up (imports, parse caches)
        times: dict[str, list[float]] = {"memory": [], "sqlite": []}
        grown: list[int] = []
        for _ in range(repeats):  # interleaved, so load spikes hit both
            for saver in ("memory", "sqlite"):
                elapsed, size = await _generate(saver, Path(tmp), verify)
                times[saver].append(elapsed)
                if saver == "sqlite":
                    grown.append(size)
    memory, sqlite = min(times["memory"]), min(times["sqlite"])
    ratio = sqlite / memory
    return Result(
        "SQLite checkpointer",
        ratio <= 1.2,
        [
            f"offline generate all{'' if verify else ' --no-verify'}, bank: "
            f"SQLite {sqlite:.3f} s CPU · in-memory {memory:.3f} s "
            f"CPU · ratio {ratio:.2f} (goal ≤ 1.2), best of {repeats}, interleaved",
            f"store growth per run: {json.dumps(grown)} bytes (older runs pruned: newest 20 kept)",
        ],
    )


# --- offline generation throughput, bank and a 43-skill project --------------------------


async def _generate_once(project: Path, tmp: Path) -> tuple[int, float, float]:
    """Cases, CPU seconds and wall seconds of one in-process offline `generate all`."""
    from agentflows.generate import GenerateRequest, build_request, run_generation

    options: dict[str, Any] = {}
    if "verify" in GenerateRequest.model_fields:  # measured without the verification node
        options["verify"] = False
    shutil.rmtree(tmp / "cases", ignore_errors=True)
    request = build_request(
        ["all"],
        project=project,
        model="offline",
        cases_root=str(tmp / "cases"),
        concurrency=4,
        **options,
    )
    cpu, wall = time.process_time(), time.perf_counter()
    report = await run_generation(request, checkpoints=tmp / "ck.sqlite")
    cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
    return len(report["cases"]) + len(report["failed"]), cpu, wall


async def generation_rate(skills: int = 43, repeats: int = 3) -> Result:
    """Offline `generate all` on examples/bank and on a synthetic `skills`-skill project,
    in this process after a warm-up (net of start-up: interpreter and imports), runs
    interleaved, medians of `repeats`. The rate is cases per CPU second of this process
    (the machine is shared; wall time is printed beside it); linear means a case of the
    big project costs at most 1.25× a case of bank."""
    import statistics

    from .synthetic import write_project

    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        synthetic = write_project(root / "synthetic", skills)
        projects = {"bank": BANK, f"{skills}-skill": synthetic}
        await _generate_once(BANK, root)  # warm-up: imports, first-call set-up
        runs: dict[str, list[tuple[int, float, float]]] = {name: [] for name in projects}
        for _ in range(repeats):
            for name, project in projects.items():
                runs[name].append(await _generate_once(project, root))
    lines, ok, per_case = [], True, {}
    for name, measured in runs.items():
        cases = measured[0][0]
        cpu = statistics.median(m[1] for m in measured)
        wall = statistics.median(m[2] for m in measured)
        rate = cases / cpu
        per_case[name] = cpu / cases
        ok &= rate >= 200
        lines.append(
            f"{name}: {cases} cases · {cpu:.2f} s CPU, {wall:.2f} s wall (medians of "
            f"{repeats}) · {rate:.0f} cases per CPU second (goal ≥ 200)"
        )
    big, small = per_case[f"{skills}-skill"], per_case["bank"]
    ok &= big / small <= 1.25
    lines.append(
        f"linear: a case of the {skills}-skill project costs {big / small:.2f}× a case of bank "
        "(goal ≤ 1.25)"
    )
    return Result("offline generate all, net of start-up", ok, lines)


async def main(argv: list[str]) -> int:
    import argparse

    parser = argparse.ArgumentParser(prog="python -m benchmarks speed")
    parser.add_argument("--files", type=int, default=2016)
    parser.add_argument("--skills", type=int, default=43)
    parser.add_argument(
        "--only",
        nargs="+",
        choices=["startup", "validate", "checkpoints", "generation", "rerun"],
        help="run only these sections",
    )
    parser.add_argument(
        "--against", type=Path, help="also time start-up side by side with this casegen tree"
    )
    args = parser.parse_args(argv)
    wanted = set(args.only or ["startup", "validate", "checkpoints", "generation", "rerun"])
    results = []
    if "startup" in wanted:
        results.append(startup())
        if args.against is not None:
            from .startup import side_by_side

            results.append(side_by_side(args.against))
    if "validate" in wanted:
        results.append(validate_rate(args.files))
    if "checkpoints" in wanted:
        results.append(await checkpoints())
    if "generation" in wanted:
        results.append(await generation_rate(args.skills))
    if "rerun" in wanted:
        results.append(await cached_rerun())
    for result in results:
        print(result.render())
    return 0 if all(r.ok for r in results) else 1
