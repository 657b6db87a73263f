"""Ray executor overhead: the same sleeping agent run locally and as Ray tasks.

The fake agent sleeps `--delay` seconds per turn, so a run of `--turns` scripted turns takes
`turns × delay` of agent time and the ideal wall time of N runs, P at once, is

    ideal = turns × delay × ⌈N / P⌉                 (64 runs, P 16, 2 turns × 0.5 s: 4.0 s)

- **python**: `python:benchmarks.ray_executor:sleepy_agent` (an in-process agent, imported
  by name on each worker), Anychat-style scripted turns, no model;
- **command**: a base44 fixture run by `command:"sleep …"` (one turn), so the fixture pack
  travels to the workers and the checks run there.

    per-run overhead = wall / ⌈N / P⌉ − turns × delay   (what each run slot loses per run)
    inside the run   = mean(record duration) − turns × delay  (spent in `run_one` itself)
    ratio = wall / ideal                               (goals: ≤ 50 ms, ≤ 1.3 at P = 16)

Ray start-up (`ray.init` of a local instance) and the first wave (workers starting and
importing casegen) are reported apart: they are paid once per command, not per run. The local
executor's figures on the same runs are printed for comparison.

    python -m benchmarks ray-executor --runs 64 --parallel 16 --delay 0.5 --turns 2
"""

from __future__ import annotations

import asyncio
import json
import math
import tempfile
import time
from pathlib import Path
from typing import Any

SLEEP_ENV = "CASEGEN_BENCH_SLEEP_S"


async def sleepy_agent(request: dict[str, Any]) -> dict[str, Any] | None:
    """Answers each text turn after the delay the turn asks for (`sleep:<seconds>`)."""
    if request.get("close"):
        return {"state": {}}
    turn = request["turn"]
    if turn["type"] != "text":
        return None
    seconds = float(str(turn.get("text", "")).partition("sleep:")[2] or 0)
    await asyncio.sleep(seconds)
    return {"messages": [{"text": f"slept {seconds:g}s"}]}


def _python_cases(runs: int, turns: int, delay: float) -> list[Any]:
    from evalcore.agents import UserTurn
    from evalcore.runner import RunCase

    return [
        RunCase(
            slug=f"sleepy_{i:03d}",
            name=f"sleepy {i}",
            dialect="anychat",
            path=f"bench/sleepy_{i:03d}.json",
            script=[UserTurn(type="text", text=f"sleep:{delay}") for _ in range(turns)],
            checks={},
        )
        for i in range(runs)
    ]


def _command_cases(root: Path, runs: int) -> list[Any]:
    from evalcore.runner import collect_cases

    fixture = root / "sleepy"
    (fixture / "project" / "src").mkdir(parents=True)
    (fixture / "project" / "src" / "app.js").write_text("export {}\n", "utf-8")
    prompts = [
        {
            "name": f"p{i:03d}",
            "prompt": "write the file",
            "expectedSkills": [],
            "checks": [{"type": "file-exists", "description": "kept", "filePath": "src/app.js"}],
        }
        for i in range(runs)
    ]
    eval_json = {"name": "sleepy", "description": "sleeps", "prompts": prompts}
    (fixture / "eval.json").write_text(json.dumps(eval_json), "utf-8")
    return collect_cases([fixture / "eval.json"])


async def _timed(cases: list[Any], target: Any, parallel: int, executor: Any) -> tuple[float, Any]:
    from evalcore.runner import RunOptions, run_cases

    options = RunOptions(parallel=parallel)
    started = time.monotonic()
    report = await run_cases(cases, target, options, executor=executor)
    return time.monotonic() - started, report


def _line(name: str, wall: float, runs: int, parallel: int, agent_s: float, report: Any) -> str:
    waves = math.ceil(runs / parallel)
    ideal = agent_s * waves
    overhead_ms = (wall / waves - agent_s) * 1000
    inside_ms = (sum(r.duration_s for r in report.records) / runs - agent_s) * 1000
    ok = report.passed == runs
    return (
        f"| {name} | {runs} runs, P {parallel} | {wall:.2f} s | {ideal:.2f} s | "
        f"**{wall / ideal:.2f}** | **{overhead_ms:.0f} ms** | {inside_ms:.0f} ms | "
        f"{report.passed}/{runs}{'' if ok else ' (NOT ALL PASSED)'} |"
    )


async def _bare_ray(ray: Any, runs: int, parallel: int, seconds: float, repeat: int) -> float:
    """The same sleeps as bare Ray tasks, submitted as the executor does (two per slot)."""

    def nap(seconds: float) -> float:
        time.sleep(seconds)
        return seconds

    task = ray.remote(num_cpus=1)(nap)
    walls = []
    for _ in range(repeat):
        window = asyncio.Semaphore(parallel * 2)

        async def one(window: asyncio.Semaphore) -> None:
            async with window:
                await asyncio.wrap_future(task.remote(seconds).future())

        started = time.monotonic()
        await asyncio.gather(*(one(window) for _ in range(runs)))
        walls.append(time.monotonic() - started)
    return sorted(walls)[len(walls) // 2]


async def main(argv: list[str]) -> int:
    import argparse

    parser = argparse.ArgumentParser(prog="python -m benchmarks ray-executor")
    parser.add_argument("--runs", type=int, default=64)
    parser.add_argument("--parallel", type=int, default=16)
    parser.add_argument("--delay", type=float, default=0.5)
    parser.add_argument("--turns", type=int, default=2)
    parser.add_argument("--repeat", type=int, default=3, help="timed runs of each (median)")
    parser.add_argument("--address", default=None, help="a Ray cluster (default: local)")
    args = parser.parse_args(argv)
    try:
        import ray
    except ImportError:
        print("## Ray executor\nskipped: Ray is not installed (pip install 'casegen[ray]')\n")
        return 0
    from evalcore.agents import parse_target
    from evalcore.runner.ray_executor import RayExecutor

    python_target = parse_target("python:benchmarks.ray_executor:sleepy_agent")
    command_target = parse_target(f'command:"sleep {args.delay} && echo done {{prompt}}"')
    python_cases = _python_cases(args.runs, args.turns, args.delay)
    lines = ["## Ray executor (`python -m benchmarks ray-executor`)", ""]
    with tempfile.TemporaryDirectory(prefix="casegen-bench-ray-") as tmp:
        command_cases = _command_cases(Path(tmp), args.runs)
        executor = RayExecutor(address=args.address)
        started = time.monotonic()
        executor._init(ray, args.parallel)
        init_s = time.monotonic() - started
        warm = _python_cases(args.parallel, 1, 0.0)
        first_wave, _ = await _timed(warm, python_target, args.parallel, executor)
        await _timed(command_cases[: args.parallel], command_target, args.parallel, executor)
        lines.append(
            f"start-up: ray.init {init_s:.2f} s; first wave of {args.parallel} runs "
            f"(workers start, import casegen) {first_wave:.2f} s"
        )
        lines += [
            "",
            "| executor, agent | runs | wall | ideal | ratio | overhead per run "
            "| of it inside the run | passed |",
            "|---|---|---|---|---|---|---|---|",
        ]
        python_s = args.turns * args.delay
        for name, executor_ in (("local", None), ("ray", executor)):
            for kind, cases, target, agent_s in (
                ("python", python_cases, python_target, python_s),
                ("command", command_cases, command_target, args.delay),
            ):
                timed = [
                    await _timed(cases, target, args.parallel, executor_)
                    for _ in range(args.repeat)
                ]
                wall, report = sorted(timed, key=lambda t: t[0])[len(timed) // 2]
                lines.append(
                    _line(f"{name}, {kind}", wall, args.runs, args.parallel, agent_s, report)
                )
        floor = await _bare_ray(ray, args.runs, args.parallel, python_s, args.repeat)
        waves = math.ceil(args.runs / args.parallel)
        lines.append(
            f"| ray, a bare task sleeping {python_s:g} s (Ray's own floor here) | "
            f"{args.runs} runs, P {args.parallel} | {floor:.2f} s | {python_s * waves:.2f} s | "
            f"**{floor / (python_s * waves):.2f}** | **{(floor / waves - python_s) * 1000:.0f} ms**"
            " | – | – |"
        )
    lines += ["", f"medians of {args.repeat} runs each", ""]
    print("\n".join(lines))
    ray.shutdown()
    return 0


__all__ = ["main", "sleepy_agent"]
