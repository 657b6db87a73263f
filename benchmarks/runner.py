"""Runner throughput: runs per second, and how close `--parallel` gets to the ideal.

(a) offline: N runs of a synthetic Mantle case against an in-process agent that answers at
    once, with the offline simulator and no judge: the runner's own cost per run (playing,
    event log, assertions, record, results files).

(b) LLM: the same runs with the simulator and the judge on the real `ChatOpenAI` client
    against the loopback stub server, which answers every request after a fixed delay. Each
    run plays `--turns` simulated user turns, so it makes `turns + 1` simulator calls (the
    last one says done), then the criteria judge's call and the metrics judge's call at
    once: `turns + 2` calls on its critical path, and

        ideal = delay × (turns + 2) × ⌈N / P⌉          (64 runs, P = 16, 0.2 s: 4.0 s)

    is the wall time of a perfect scheduler with an instant agent and zero overhead;
    `ratio = wall / ideal` (goal ≤ 1.3 at `--parallel 16`). One run is made before timing
    (the OpenAI client imports most of its modules on its first request). The stub runs in
    its own process unless `--in-process-stub` is given.

    python -m benchmarks runner --runs 64 --parallel 16 --delay 0.2
"""

from __future__ import annotations

import contextlib
import math
import os
import re
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
TURNS_MARK = "TURNS="
_TURNS = re.compile(r"TURNS=(\d+)")
_USER_LINE = re.compile(r"^you: ", re.M)


@dataclass
class Result:
    name: str
    ok: bool
    lines: list[str]

    def render(self) -> str:
        return "\n".join([f"## {self.name}", *self.lines, ""])


def _cases(runs: int, turns: int) -> list[Any]:
    from evalcore.runner import Criterion, RunCase, SimulationSpec

    steps = "\n".join(f'{n}. Say "message {n}"' for n in range(1, turns + 1))
    return [
        RunCase(
            slug=f"bench_{i:03d}",
            name=f"Benchmark case {i}",
            dialect="mantle",
            path=f"bench_{i:03d}.yml",
            simulate=SimulationSpec(context=f"You are a customer. {TURNS_MARK}{turns}\n{steps}"),
            checks=[
                {"skill_activated": {"skill_id": "support"}},
                {"tool_executed": {"tool_name": "lookup", "source": "local"}},
            ],
            criteria=[
                Criterion(id="1", text="The agent answers every message"),
                Criterion(id="2", text="The agent stays polite"),
            ],
        )
        for i in range(runs)
    ]


def answer(request: Any) -> dict[str, Any]:
    """The stub's answer: the simulator talks for TURNS= turns (or, for a real case, plays
    its quoted lines in order) then is done; the judge passes every criterion."""
    if request.schema_name == "SimulatedMessage":
        marker = _TURNS.search(request.text)
        if marker is None:
            return _play_quoted(request.text)
        turns = int(marker.group(1))
        said = len(_USER_LINE.findall(request.text))
        if said >= turns:
            return {"message": "", "done": True}
        return {"message": f"message {said + 1}", "done": False}
    if request.schema_name == "QualityMetrics":
        scores = dict.fromkeys(("helpfulness", "repair_quality", "coherence", "tone"), 5)
        return {**scores, "task_completion": True, "reason": "[T1] fine."}
    required = (request.schema or {}).get("required") or []
    return {name: {"reason": "[T1] fine.", "verdict": "pass"} for name in required}


def _play_quoted(prompt: str) -> dict[str, Any]:
    """A model that plays a drafted scenario like a diligent simulated user would: what the
    offline simulator says next for the prompt's context and conversation."""
    from evalcore.runner import SimulationSpec
    from evalcore.simulator import SimulatorSettings, Utterance, make_simulator

    context = prompt.rsplit("<Context>", 1)[1].split("</Context>", 1)[0].strip()  # the user part
    conversation = prompt.split("<Conversation>", 1)[1].split("</Conversation>", 1)[0]
    history: list[Utterance] = []
    for line in conversation.strip().splitlines():
        role, _, text = line.partition(": ")
        if role in ("you", "agent"):
            turn = len([u for u in history if u.role == "user"]) + (role == "you")
            history.append(Utterance(turn, "user" if role == "you" else "agent", text))
        elif history:  # a line of a message that spans several
            last = history[-1]
            history[-1] = Utterance(last.turn, last.role, f"{last.text}\n{line}")
    simulator = make_simulator(
        SimulationSpec(context=context), dialect="mantle", settings=SimulatorSettings()
    )
    # the simulator keeps state between turns: it is walked through the conversation so far
    for at, utterance in enumerate(history):
        if utterance.role == "user":
            _await(simulator.next_step(history[:at]))
    step = _await(simulator.next_step(history))
    return {"message": "" if step.done else step.message, "done": step.done}


def _await(coroutine: Any) -> Any:
    import asyncio

    return asyncio.run(coroutine)


@contextlib.contextmanager
def stub_server(delay_s: float, *, in_process: bool = False) -> Iterator[str]:
    """The stub's base URL; by default in its own process, as a real model server would be."""
    sys.path.insert(0, str(REPO / "tests"))
    if in_process:
        from stub_openai import StubOpenAI

        with StubOpenAI(answer, delay_s=delay_s) as stub:
            yield stub.base_url
        return
    command = [
        sys.executable,
        str(REPO / "tests" / "stub_openai.py"),
        "--delay",
        str(delay_s),
        "--handler",
        "benchmarks.runner:answer",
    ]
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(REPO), str(REPO / "tests")])}
    with subprocess.Popen(
        command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, env=env, cwd=REPO
    ) as process:
        try:
            assert process.stdout is not None
            yield process.stdout.readline().strip()
        finally:
            assert process.stdin is not None
            process.stdin.close()  # the stub serves until its stdin closes
            process.wait(timeout=10)


async def offline_throughput(runs: int = 200, parallel: int = 16, turns: int = 3) -> Result:
    from evalcore.runner import ResultsWriter, RunOptions, run_cases
    from evalcore.runner.testing import FunctionTarget, mantle_echo

    with tempfile.TemporaryDirectory() as tmp:
        writer = ResultsWriter(Path(tmp))
        start = time.perf_counter()
        report = await run_cases(
            _cases(runs, turns),
            FunctionTarget(mantle_echo, spec="bench"),
            RunOptions(parallel=parallel),
            results=writer,
        )
        wall = time.perf_counter() - start
    ok = report.passed == runs
    return Result(
        "offline runs",
        ok,
        [
            f"runs: {runs} · parallel: {parallel} · turns per run: {turns} · passed: "
            f"{report.passed} (assertions only: no judge)",
            f"wall time: {wall:.2f} s · {runs / wall:.1f} runs/s (results files written)",
        ],
    )


async def llm_parallel(
    runs: int = 64,
    parallel: int = 16,
    delay_s: float = 0.2,
    turns: int = 3,
    *,
    in_process: bool = False,
) -> Result:
    from pydantic import SecretStr

    from evalcore.judge import JudgeSettings
    from evalcore.llm import ModelConfig
    from evalcore.runner import RunOptions, run_cases
    from evalcore.runner.testing import FunctionTarget, mantle_echo
    from evalcore.simulator import SimulatorSettings

    calls_per_run = (turns + 1) + 1  # the judges' two calls go out together
    ideal = delay_s * calls_per_run * math.ceil(runs / parallel)
    with stub_server(delay_s, in_process=in_process) as base_url:
        config = ModelConfig(
            model="stub-model",
            base_url=base_url,
            api_key=SecretStr("stub-key"),
            timeout_s=30,
            retry_base_delay_s=0.05,
        )
        options = RunOptions(
            parallel=parallel,
            simulator=SimulatorSettings(model=config),
            judge=JudgeSettings(model=config),
        ).with_models()
        target = FunctionTarget(mantle_echo, spec="bench")
        try:
            await run_cases(_cases(1, turns), target, options)  # warm-up
            start = time.perf_counter()
            report = await run_cases(_cases(runs, turns), target, options)
            wall = time.perf_counter() - start
        except Exception as exc:  # a benchmark reports what is missing instead of a traceback
            return Result(
                "LLM runs at --parallel", False, [f"not available: {type(exc).__name__}: {exc}"]
            )
    ratio = wall / ideal
    calls = sum(_calls(r) for r in report.records)
    where = "in this process" if in_process else "in its own process"
    return Result(
        "LLM runs at --parallel",
        ratio <= 1.3 and report.passed == runs,
        [
            f"runs: {runs} · parallel: {parallel} · simulated turns per run: {turns} · stub delay: "
            f"{delay_s:g} s, stub {where} · model calls: {calls} · passed: {report.passed} "
            f"(judged: {sum(r.judged for r in report.records)})",
            f"ideal = delay × {calls_per_run} calls on a run's path × ⌈{runs}/{parallel}⌉ = "
            f"{ideal:.2f} s",
            f"wall time: {wall:.2f} s · {runs / wall:.2f} runs/s · ratio {ratio:.2f} (goal ≤ 1.3)",
            f"max open sessions: {target.max_open}",
        ],
    )


def _calls(record: Any) -> int:
    """The model calls of one run: simulator, criteria judge and metrics judge."""
    judges = [record.judge, record.metrics_judge]
    return record.simulator.usage.calls + sum(j.usage.calls for j in judges if j is not None)


async def demo_bank_parallel(
    runs: int = 64,
    parallel: int = 16,
    delay_s: float = 0.2,
    *,
    in_process: bool = False,
) -> Result:
    """(c) The generated card_replace suite against `demo:bank`, with the LLM simulator and
    judge on the stub: real conversations of different lengths, so the ideal is the lower
    bound of any scheduler, `delay × max(⌈Σ paths / P⌉, longest path)`, where a run's path is
    its simulator calls, one after the other, and then the two judges' calls at once."""
    from pydantic import SecretStr

    from evalcore.agents import parse_target
    from evalcore.judge import JudgeSettings
    from evalcore.llm import ModelConfig
    from evalcore.runner import RunOptions, collect_cases, run_cases
    from evalcore.simulator import SimulatorSettings

    suite = collect_cases([REPO / "generated_cases" / "mantle" / "card_replace"])
    cases = [suite[i % len(suite)] for i in range(runs)]
    with stub_server(delay_s, in_process=in_process) as base_url:
        config = ModelConfig(
            model="stub-model",
            base_url=base_url,
            api_key=SecretStr("stub-key"),
            timeout_s=30,
            retry_base_delay_s=0.05,
        )
        options = RunOptions(
            parallel=parallel,
            simulator=SimulatorSettings(model=config),
            judge=JudgeSettings(model=config),
        ).with_models()
        target = parse_target("demo:bank")
        try:
            await run_cases(cases[:1], target, options)  # warm-up
            start = time.perf_counter()
            report = await run_cases(cases, target, options)
            wall = time.perf_counter() - start
        except Exception as exc:  # a benchmark reports what is missing instead of a traceback
            return Result("demo:bank at --parallel", False, [f"not available: {exc}"])
    # A run's path: its simulator calls one after the other, then the two judges at once.
    paths = [r.simulator.usage.calls + 1 for r in report.records]
    calls = sum(_calls(r) for r in report.records)
    ideal = delay_s * max(math.ceil(sum(paths) / parallel), max(paths))
    ratio = wall / ideal
    where = "in this process" if in_process else "in its own process"
    return Result(
        "demo:bank at --parallel",
        ratio <= 1.3 and report.passed == runs,
        [
            f"runs: {runs} ({len(suite)} generated card_replace cases, repeated) · parallel: "
            f"{parallel} · stub delay: {delay_s:g} s, stub {where} · model calls: {calls} "
            f"· passed: {report.passed} (judged: {sum(r.judged for r in report.records)})",
            f"ideal = delay × max(⌈{sum(paths)}/{parallel}⌉, {max(paths)}) = {ideal:.2f} s "
            "(calls on each run's path)",
            f"wall time: {wall:.2f} s · {runs / wall:.2f} runs/s · ratio {ratio:.2f} (goal ≤ 1.3)",
        ],
    )


async def main(argv: list[str]) -> int:
    import argparse

    parser = argparse.ArgumentParser(prog="python -m benchmarks runner")
    parser.add_argument("--runs", type=int, default=64)
    parser.add_argument("--parallel", type=int, default=16)
    parser.add_argument("--delay", type=float, default=0.2)
    parser.add_argument("--turns", type=int, default=3)
    parser.add_argument("--offline-runs", type=int, default=200)
    parser.add_argument("--skip-offline", action="store_true")
    parser.add_argument(
        "--in-process-stub",
        action="store_true",
        help="run the stub server in this process (adds its CPU to ours)",
    )
    args = parser.parse_args(argv)
    results = []
    if not args.skip_offline:
        results.append(await offline_throughput(args.offline_runs, args.parallel, args.turns))
    results.append(
        await llm_parallel(
            args.runs, args.parallel, args.delay, args.turns, in_process=args.in_process_stub
        )
    )
    results.append(
        await demo_bank_parallel(
            args.runs, args.parallel, args.delay, in_process=args.in_process_stub
        )
    )
    for result in results:
        print(result.render())
    return 0 if all(r.ok for r in results) else 1


if __name__ == "__main__":
    import asyncio

    raise SystemExit(asyncio.run(main(sys.argv[1:])))
