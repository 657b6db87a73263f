"""Where users wait: `generate` with a model, `casegen mcp`'s start, `run --parallel`'s
cap on model requests, and `validate --no-project` against a full lint.

    python -m benchmarks waits [--delay 0.2] [--slow-delay 2] [--repeats 3]
        [--only generate mcp parallel validate]
        [--against DIR]   (generate: another casegen tree's runs interleaved, side by side)

(a) generate: `casegen generate all --project examples/bank --model stub-model` as a user
    runs it, a fresh interpreter each time (bytecode written by a warm-up run), against the
    stub OpenAI-compatible server on 127.0.0.1 (in this process, so the command has its
    interpreter to itself) answering every request after a fixed delay. With every draft
    valid at once, each case is one model call and the model-bound ideal of the command is

        ideal = delay × ⌈calls / C⌉

    (a perfect scheduler, no start-up, nothing after the last answer). The figures, medians
    of `--repeats` runs interleaved at C = 4 and 10: the command's wall / ideal (goal ≤ 1.5),
    the first request's time after spawn (goal ≤ 0.5 s), the model phase (first request →
    last answer) and what comes after the last answer. One more run under
    `python -X importtime` counts the modules the command imports and says whether
    LangChain and LangSmith are among them, and the floor: an interpreter that only imports
    the flow's libraries (LangGraph, its SQLite checkpointer, langchain-openai) and exits.
    For scale, one run per level with the stub answering after `--slow-delay` (2 s), a
    latency real models have: the command against that ideal, no goal.
(b) mcp: spawn → `initialize` + `list_tools` answered, with the official `mcp` client over
    stdio, median of `--repeats` + 2 runs after a warm-up (goal ≤ 0.3 s), for a start that
    finds the answers the previous one kept (`agentflows/mcp_server/_quick.py`) and, beside
    it, a first start (a fresh cache folder); for scale, an interpreter that imports `mcp`
    and exits.
(c) parallel: `run_cases` of 20 cases at `--parallel 20` with the simulator, the criteria
    judge and the metrics judge on the stub: the most requests the stub held at once
    (goal ≤ 20; a finishing run asks its two judges together).
(d) validate: µs of CPU per file of `validate --no-project` (schema only) and of a full
    lint with `--project`, over the same 1,008 copies of bank's scenarios, interleaved,
    medians of five (goal: --no-project ≤ the full lint).

The machine is shared: the load average is printed with each section.
"""

from __future__ import annotations

import asyncio
import math
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from .generation import Result, _case_for

REPO = Path(__file__).resolve().parents[1]
BANK = REPO / "examples" / "bank"
#: `casegen` as installed (`agentflows.cli:run`): the command, then its quick exit.
CLI = "from agentflows.cli import run; run()"


def _load() -> str:
    return "load average " + " / ".join(f"{x:.1f}" for x in os.getloadavg())


def _env(**extra: str) -> dict[str, str]:
    """This tree first on the path, bytecode kept (as an installed casegen has it)."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env.update(PYTHONPATH=str(REPO), NO_PROXY="127.0.0.1,localhost", no_proxy="127.0.0.1")
    env.update(extra)
    return env


def _stub_module() -> Any:
    sys.path.insert(0, str(REPO / "tests"))
    import stub_openai

    return stub_openai


# --- (a) generate with a model -------------------------------------------------------------


def _answer(request: Any) -> Any:
    """A refined plan left as planned, else the words of a valid Mantle draft."""
    if request.schema_name == "RefinedPlan":
        return {"behaviors": []}
    return _case_for(request)


def _generate_once(
    stub: Any, concurrency: int, *, importtime: bool = False, tree: Path = REPO
) -> dict[str, float | int | str]:
    """One `generate all` process of `tree`'s casegen against `stub`: seconds from spawn to
    the first request, the last answer and the exit, the process CPU, the calls made."""
    stub.requests.clear()
    stub.answered_at.clear()
    with tempfile.TemporaryDirectory(prefix="casegen-waits-") as tmp:
        argv = [sys.executable, *(["-X", "importtime"] if importtime else []), "-c", CLI]
        argv += ["generate", "all", "--project", str(tree / "examples" / "bank")]
        argv += ["--model", "stub-model", "--out", f"{tmp}/out"]
        argv += ["--concurrency", str(concurrency), "--no-cache", "--json"]
        env = _env(OPENAI_BASE_URL=stub.base_url, OPENAI_API_KEY=stub.api_key)
        env["PYTHONPATH"] = str(tree)
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.monotonic()
        done = subprocess.run(argv, cwd=tmp, env=env, capture_output=True, text=True)
        end = time.monotonic()
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0 or not stub.requests:
        raise RuntimeError(f"generate exited {done.returncode}: {done.stderr[-600:]}")
    received = [r.received_at for r in stub.requests]
    return {
        "first": min(received) - start,
        "last": max(stub.answered_at) - start,
        "wall": end - start,
        "cpu": (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime),
        "calls": len(received),
        "stderr": done.stderr,
    }


#: What a run with a model cannot start without: the LangGraph flow, its checkpointer and the
#: chat client; their import time is the command's floor, whatever casegen does.
FLOOR_MODULES = ("langgraph.graph", "langgraph.checkpoint.sqlite", "langchain_openai")


def _import_floor() -> float:
    """Seconds for a fresh interpreter to import FLOOR_MODULES and exit."""
    start = time.monotonic()
    code = "import " + ", ".join(FLOOR_MODULES)
    subprocess.run([sys.executable, "-c", code], env=_env(), check=True)
    return time.monotonic() - start


def generate_command(
    delay_s: float = 0.2,
    repeats: int = 3,
    against: Path | None = None,
    slow_delay_s: float = 2.0,
) -> Result:
    """`generate all` on bank at C = 4 and 10 against the stub (see the module docstring);
    with `against` (another casegen tree, e.g. a `git archive` of an earlier commit), its
    runs are interleaved with this tree's and printed beside them. One more run per level
    with the stub answering after `slow_delay_s` (0: none) shows the command where a model's
    latency, not casegen's CPU, sets the pace, as with a real model."""
    stub_openai = _stub_module()
    levels = (4, 10)
    trees = (*([Path(against).resolve()] if against is not None else []), REPO)
    runs: dict[tuple[Path, int], list[dict[str, Any]]] = {(t, c): [] for t in trees for c in levels}
    loads: list[float] = []
    with stub_openai.StubOpenAI(_answer, delay_s=delay_s) as stub:
        for tree in trees:  # warm-up: bytecode, the records' code caches
            _generate_once(stub, levels[0], tree=tree)
        for _ in range(repeats):
            for level in levels:
                for tree in trees:
                    loads.append(os.getloadavg()[0])
                    runs[tree, level].append(_generate_once(stub, level, tree=tree))
        traced = _generate_once(stub, levels[0], importtime=True)
    floors = [_import_floor() for _ in range(repeats)]
    slow: dict[int, dict[str, Any]] = {}
    if slow_delay_s:
        with stub_openai.StubOpenAI(_answer, delay_s=slow_delay_s) as stub:
            slow = {level: _generate_once(stub, level) for level in levels}
    modules = [line for line in str(traced["stderr"]).splitlines() if "import time:" in line]
    names = {line.rsplit("|", 1)[-1].strip() for line in modules}
    lines = [
        f"stub delay {delay_s:g} s · medians of {repeats} runs per level"
        + (", interleaved with the tree compared" if against is not None else "")
        + f" · load average during the runs {min(loads):.1f}–{max(loads):.1f} · {_load()}"
    ]
    ok = True
    for level in levels:
        for tree in trees:
            measured = runs[tree, level]
            calls = int(measured[0]["calls"])
            ideal = delay_s * math.ceil(calls / level)
            wall = statistics.median(m["wall"] for m in measured)
            first = statistics.median(m["first"] for m in measured)
            phase = statistics.median(m["last"] - m["first"] for m in measured)
            after = statistics.median(m["wall"] - m["last"] for m in measured)
            cpu = statistics.median(m["cpu"] for m in measured)
            if tree == REPO:
                ok &= wall / ideal <= 1.5 and first <= 0.5
            lines.append(
                (f"[{tree}] " if against is not None else "")
                + f"C = {level}: {calls} calls, ideal {ideal:.2f} s · command {wall:.2f} s: "
                f"{wall / ideal:.2f}× ideal (goal ≤ 1.5; runs "
                + ", ".join(f"{m['wall'] / ideal:.2f}" for m in measured)
                + f") · first request {first:.2f} s after spawn (goal ≤ 0.5 s) · model phase "
                f"{phase:.2f} s ({phase / ideal:.2f}× ideal) · after the last answer "
                f"{after:.2f} s · process CPU {cpu:.2f} s"
            )
    for level, measured in slow.items():
        ideal = slow_delay_s * math.ceil(int(measured["calls"]) / level)
        lines.append(
            f"for scale, a model answering after {slow_delay_s:g} s (one run), C = {level}: "
            f"command {measured['wall']:.2f} s = {measured['wall'] / ideal:.2f}× its ideal "
            f"({ideal:.2f} s) · first request {measured['first']:.2f} s"
        )
    floor = statistics.median(floors)
    lines.append(
        f"floor: an interpreter that imports the flow's libraries ({', '.join(FLOOR_MODULES)}) "
        f"and exits takes {floor:.2f} s (median of {repeats}); at C = 10 that alone is "
        f"{floor / (delay_s * math.ceil(calls / levels[-1])):.2f}× the ideal"
    )
    lines.append(
        f"imports (python -X importtime, one run): {len(modules)} modules · "
        f"langchain_core {'yes' if 'langchain_core' in names else 'no'} · "
        f"langsmith {'yes' if 'langsmith' in names else 'no'} · "
        f"langgraph {'yes' if 'langgraph' in names else 'no'}"
    )
    return Result("generate with a model: the command against its model-bound ideal", ok, lines)


# --- (b) casegen mcp -----------------------------------------------------------------------


async def _mcp_once(cache: Path) -> tuple[float, int]:
    from mcp import Client
    from mcp.client.stdio import StdioServerParameters

    params = StdioServerParameters(
        command=sys.executable,
        args=["-c", CLI, "mcp", "--project", str(BANK)],
        cwd=str(REPO),
        env=_env(CASEGEN_CACHE_DIR=str(cache)),
    )
    start = time.monotonic()
    async with Client(params) as client:
        tools = (await client.list_tools()).tools
        answered = time.monotonic() - start
    return answered, len(tools)


async def mcp_start(repeats: int = 5) -> Result:
    """Spawn → `initialize` + `list_tools` answered (see the module docstring): a first
    start (no kept answers: a fresh cache folder each time) and a later one, interleaved."""
    import shutil

    cold: list[float] = []
    warm: list[tuple[float, int]] = []
    with tempfile.TemporaryDirectory(prefix="casegen-mcp-") as tmp:
        kept = Path(tmp) / "kept"
        try:
            await _mcp_once(kept)  # warm-up: bytecode, and the answers kept for later starts
            for n in range(repeats):
                fresh = Path(tmp) / f"fresh-{n}"
                cold.append((await _mcp_once(fresh))[0])
                shutil.rmtree(fresh, ignore_errors=True)
                warm.append(await _mcp_once(kept))
        except Exception as exc:  # a benchmark says what is missing instead of a traceback
            return Result("casegen mcp start", False, [f"not available: {exc!r}"])
    times = [t for t, _ in warm]
    floors = []
    for _ in range(repeats):
        start = time.monotonic()
        subprocess.run([sys.executable, "-c", "import mcp"], env=_env(), check=True)
        floors.append(time.monotonic() - start)
    median = statistics.median(times)
    return Result(
        "casegen mcp start",
        median <= 0.3,
        [
            f"spawn → initialize + list_tools ({warm[0][1]} tools), official mcp client over "
            f"stdio, {repeats} runs interleaved · {_load()}",
            f"a later start (answers kept): {median:.3f} s median, best {min(times):.3f} s "
            f"(goal ≤ 0.3 s) · a first start (none kept yet): {statistics.median(cold):.3f} s "
            f"median, best {min(cold):.3f} s",
            f"for scale: an interpreter that imports the mcp SDK and exits: "
            f"{statistics.median(floors):.3f} s median",
        ],
    )


# --- (c) run --parallel: model requests in flight ----------------------------------------


def _judging(request: Any) -> Any:
    """The simulated user says one line then is done; the judges pass and score."""
    if request.schema_name == "QualityMetrics":
        scores = dict.fromkeys(("helpfulness", "repair_quality", "coherence", "tone"), 4)
        return {**scores, "task_completion": True, "reason": "[T1] done"}
    if request.schema_name == "CriteriaVerdicts":
        return {"criterion_1": {"reason": "[T1] greeted", "verdict": "pass"}}
    if "Hello there" in request.text.split("<Conversation>", 1)[-1]:
        return {"message": "", "done": True}
    return {"message": "Hello there", "done": False}


async def parallel_cap(parallel: int = 20, delay_s: float = 0.2) -> Result:
    """`parallel` cases with a simulator, a judge and metrics at `--parallel parallel`."""
    from pydantic import SecretStr

    from evalcore.judge import JudgeSettings
    from evalcore.llm import ModelConfig
    from evalcore.runcase import Criterion
    from evalcore.runner import RunCase, RunOptions, SimulationSpec, run_cases
    from evalcore.runner.testing import FunctionTarget, mantle_echo
    from evalcore.simulator import SimulatorSettings

    stub_openai = _stub_module()
    with stub_openai.StubOpenAI(_judging, delay_s=delay_s) as stub:
        model = ModelConfig(
            model="stub-model",
            api_key=SecretStr(stub.api_key),
            base_url=stub.base_url,
            timeout_s=30.0,
        )
        options = RunOptions(
            parallel=parallel,
            simulator=SimulatorSettings(model=model),
            judge=JudgeSettings(model=model),
        )
        cases = [
            RunCase(
                slug=f"inflight_{i}",
                name=f"in flight {i}",
                dialect="mantle",
                path=f"inflight_{i}.yml",
                simulate=SimulationSpec(context='You are calm.\n1. Say "Hello there"'),
                checks=[],
                criteria=[Criterion(id="1", text="The agent greets")],
            )
            for i in range(parallel)
        ]
        report = await run_cases(cases, FunctionTarget(mantle_echo), options)
        most, calls = stub.most_in_flight, len(stub.requests)
    statuses = {r.status for r in report.records}
    return Result(
        "run --parallel: model requests in flight",
        most <= parallel and statuses == {"passed"},
        [
            f"{parallel} runs at --parallel {parallel}, simulator + criteria judge + metrics "
            f"judge on the stub ({delay_s:g} s): {calls} requests, at most {most} in flight "
            f"(goal ≤ {parallel}) · runs {', '.join(sorted(statuses))} · {_load()}"
        ],
    )


# --- (d) validate --no-project against a full lint ----------------------------------------


def validate_no_project(count: int = 1008, repeats: int = 5) -> Result:
    """µs of CPU per file, schema only and with the lint (see the module docstring)."""
    from agentflows.cli._validate import _schema_only
    from evalcore.validation import validate_paths

    from .speed import _scenario_copies

    def per_file(check: Any) -> float:
        start = time.process_time()
        reports = check()
        return (time.process_time() - start) / len(reports) * 1e6

    with _scenario_copies(count) as root:
        full = lambda: validate_paths([root], project=BANK)  # noqa: E731
        bare = lambda: _schema_only([root], None)  # noqa: E731
        per_file(full), per_file(bare)  # warm-up
        runs: dict[str, list[float]] = {"full": [], "bare": []}
        for _ in range(repeats):
            runs["full"].append(per_file(full))
            runs["bare"].append(per_file(bare))
    full_us, bare_us = statistics.median(runs["full"]), statistics.median(runs["bare"])
    return Result(
        "validate --no-project against a full lint",
        bare_us <= full_us,
        [
            f"{count} Mantle files, µs of CPU per file (medians of {repeats}, interleaved): "
            f"--no-project {bare_us:.0f} ({min(runs['bare']):.0f}–{max(runs['bare']):.0f}) · "
            f"--project (full lint) {full_us:.0f} ({min(runs['full']):.0f}–"
            f"{max(runs['full']):.0f}) · ratio {bare_us / full_us:.2f} (goal ≤ 1.00) · {_load()}"
        ],
    )


SECTIONS = ("generate", "mcp", "parallel", "validate")


async def main(argv: list[str]) -> int:
    import argparse

    parser = argparse.ArgumentParser(prog="python -m benchmarks waits")
    parser.add_argument("--delay", type=float, default=0.2)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument(
        "--slow-delay", type=float, default=2.0, help="generate: one more run per level (0: none)"
    )
    parser.add_argument("--only", nargs="+", choices=SECTIONS, help="run only these sections")
    parser.add_argument(
        "--against", type=Path, help="generate: also run this casegen tree, interleaved"
    )
    args = parser.parse_args(argv)
    wanted = set(args.only or SECTIONS)
    results = []
    if "generate" in wanted:
        results.append(
            await asyncio.to_thread(
                generate_command, args.delay, args.repeats, args.against, args.slow_delay
            )
        )
    if "mcp" in wanted:
        results.append(await mcp_start(args.repeats + 2))
    if "parallel" in wanted:
        results.append(await parallel_cap(delay_s=args.delay))
    if "validate" in wanted:
        results.append(validate_no_project())
    for result in results:
        print(result.render())
    return 0 if all(r.ok for r in results) else 1
