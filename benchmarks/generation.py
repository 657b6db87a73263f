"""Generation throughput: offline cases per second, and LLM drafting concurrency.

(a) offline: `casegen generate all --project examples/bank --model offline` into a temporary
    folder; cases per second over the whole flow (plan, draft, validate, dedupe, write).

(b) LLM: the real `LLMEngine` and `ChatOpenAI` against the loopback stub server, which
    answers every request after a fixed delay with a valid case. The plan is widened to N
    behaviours (copies of the planned ones, made without a model call) so exactly N cases
    are drafted at `--concurrency C`. Every draft is valid at once, so each case makes one
    model call on the critical path, and

        ideal = delay × ⌈N / C⌉ × calls_per_case

    is the wall time of a perfect scheduler with no overhead. The drafting phase is timed
    from the end of the `plan` step to the last `draft` update; `ratio = drafting / ideal`
    (goal ≤ 1.3). The whole run (planning, validation, dedupe, writing, checkpoints) is
    reported too. One draft is made before timing (the OpenAI client's first-request
    imports are a one-off cost), and the stub runs in its own process unless asked not to.
"""

from __future__ import annotations

import contextlib
import json
import math
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
BANK = REPO / "examples" / "bank"


@dataclass
class Result:
    name: str
    ok: bool
    lines: list[str]

    def render(self) -> str:
        return "\n".join([f"## {self.name}", *self.lines, ""])


# --- (a) offline --------------------------------------------------------------------------


async def offline_throughput(project: Path = BANK, repeats: int = 3) -> Result:
    from agentflows.generate import build_request, run_generation

    runs: list[tuple[float, int]] = []
    try:
        for _ in range(repeats):
            with tempfile.TemporaryDirectory() as tmp:
                request = build_request(
                    ["all"],
                    project=project,
                    out=str(Path(tmp) / "out"),
                    model="offline",
                    concurrency=4,
                )
                start = time.perf_counter()
                report = await run_generation(request, checkpoints=Path(tmp) / "ck.sqlite")
                elapsed = time.perf_counter() - start
                runs.append((elapsed, len(report["cases"]) + len(report["failed"])))
    except Exception as exc:  # a benchmark reports what is missing instead of a traceback
        return Result("offline generation", False, [f"not available: {type(exc).__name__}: {exc}"])
    best, cases = min(runs)
    return Result(
        "offline generation",
        True,
        [
            f"project: {project.relative_to(REPO)} · targets: all · cases per run: {cases}",
            f"wall time (best of {repeats}): {best:.3f} s · {cases / best:.1f} cases/s",
        ],
    )


# --- (b) LLM drafting through the stub server ---------------------------------------------


def _widened_engine_class() -> type:
    from agentflows.drafting.llm import LLMEngine
    from evalcore.llm import Usage

    class WidenedPlanEngine(LLMEngine):
        """The LLM engine, with the plan widened to `total` behaviours without a model call."""

        total = 50

        async def refine_plan(
            self,
            project: Any,
            dialect: str,
            source: str,
            behaviors: list[Any],
            direction: str | None,
        ) -> tuple[list[Any], Usage]:
            widened = []
            for i in range(self.total):
                base = behaviors[i % len(behaviors)]
                copy = i // len(behaviors)
                suffix = f"_b{copy}" if copy else ""
                widened.append(
                    base.model_copy(
                        update={
                            "id": base.id + suffix,
                            "case": base.case + suffix,
                            "title": f"{base.title} (variant {copy})" if copy else base.title,
                        }
                    )
                )
            return widened, Usage()

    return WidenedPlanEngine


def _case_for(request: Any) -> dict[str, Any]:
    """The words of a distinct Mantle scenario for the behaviour named in the prompt (a
    Mantle draft's ids and assertions come from the offline plan; the model writes words)."""
    text = request.text
    block = text.rsplit("<Behavior>", 1)[1].split("</Behavior>", 1)[0]
    behavior = json.loads(block[block.index("{") : block.rindex("}") + 1])
    facts = (
        text.rsplit("<Facts>", 1)[1].split("</Facts>", 1)[0].strip() if "<Facts>" in text else ""
    )
    return {
        "name": behavior["title"],
        "simulation_context": facts,  # the planned fact sheet, kept as planned
        "criteria": [f"The agent handles: {behavior['title']}"],
    }


async def _warm_up(engine: Any, project: Path, target: str) -> None:
    """One draft before timing: the OpenAI client imports most of its modules on the first
    request, a one-off cost of a run that is not what the concurrency ratio is about."""
    from agentflows.drafting import DraftContext
    from agentflows.planning import Behavior
    from evalcore.definitions import load_project

    behavior = Behavior(
        id=f"{target}:warm_up",
        source=target,
        dialect="mantle",
        type="happy_path",
        case="warm_up",
        title="Warm-up",
        description="-",
    )
    await engine.draft(DraftContext(load_project(project), "mantle", behavior))


@contextlib.contextmanager
def stub_server(delay_s: float, *, in_process: bool = False) -> Iterator[str]:
    """The stub's base URL; by default the stub runs in its own process, as a real model
    server would, so its work does not compete with the client for one interpreter."""
    sys.path.insert(0, str(REPO / "tests"))
    if in_process:
        from stub_openai import StubOpenAI

        with StubOpenAI(_case_for, delay_s=delay_s) as stub:
            yield stub.base_url
        return
    command = [
        sys.executable,
        str(REPO / "tests" / "stub_openai.py"),
        "--delay",
        str(delay_s),
        "--handler",
        "benchmarks.generation:_case_for",
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


async def llm_concurrency(
    cases: int = 50,
    concurrency: int = 10,
    delay_s: float = 0.2,
    target: str = "card_replace",
    project: Path = BANK,
    *,
    in_process: bool = False,
) -> Result:
    from agentflows.generate import build_request, run_generation
    from evalcore.llm import ModelConfig

    calls_per_case = 1
    ideal = delay_s * math.ceil(cases / concurrency) * calls_per_case
    marks: dict[str, float] = {}

    def on_update(node: str, values: dict[str, Any]) -> None:
        marks[node] = time.perf_counter()  # the last update of each node

    with (
        stub_server(delay_s, in_process=in_process) as base_url,
        tempfile.TemporaryDirectory() as tmp,
    ):
        engine_class = _widened_engine_class()
        engine_class.total = cases
        config = ModelConfig(
            model="stub-model",
            base_url=base_url,
            api_key="stub-key",
            timeout_s=30,
            retry_base_delay_s=0.05,
            cache_dir=Path(tmp) / "cache",
        )
        engine = engine_class(config, use_cache=False)
        try:
            await _warm_up(engine, project, target)
            request = build_request(
                [target],
                project=project,
                out=str(Path(tmp) / "out"),
                model="stub-model",
                concurrency=concurrency,
                no_cache=True,
            )
            start = time.perf_counter()
            report = await run_generation(
                request, engine=engine, checkpoints=Path(tmp) / "ck.sqlite", on_update=on_update
            )
            total = time.perf_counter() - start
        except Exception as exc:
            return Result(
                "LLM drafting concurrency", False, [f"not available: {type(exc).__name__}: {exc}"]
            )
    drafting = marks["draft"] - marks["plan"]
    ratio = drafting / ideal
    where = "in this process" if in_process else "in its own process"
    return Result(
        "LLM drafting concurrency",
        ratio <= 1.3,
        [
            f"cases: {cases} (target {target}, plan widened) · concurrency: {concurrency} · "
            f"stub delay: {delay_s:g} s, stub {where} · model calls: {report['llm']['calls']} "
            f"(written {len(report['cases'])}, failed {len(report['failed'])}, "
            f"duplicates dropped {report['duplicates_dropped']})",
            f"ideal drafting time = delay × ⌈{cases}/{concurrency}⌉ × {calls_per_case} call/case "
            f"= {ideal:.2f} s",
            f"drafting phase (end of plan → last draft): {drafting:.2f} s · "
            f"ratio {ratio:.2f} (goal ≤ 1.3)",
            f"whole run (plan, draft, validate, dedupe, write, checkpoints): {total:.2f} s",
        ],
    )


async def main(argv: list[str]) -> int:
    import argparse

    parser = argparse.ArgumentParser(prog="python -m benchmarks generation")
    parser.add_argument("--cases", type=int, default=50)
    parser.add_argument("--concurrency", type=int, default=10)
    parser.add_argument("--delay", type=float, default=0.2)
    parser.add_argument("--skip-offline", action="store_true")
    parser.add_argument(
        "--in-process-stub",
        action="store_true",
        help="run the stub server in this process (adds its CPU to ours)",
    )
    args = parser.parse_args(argv)
    results = []
    if not args.skip_offline:
        results.append(await offline_throughput())
    results.append(
        await llm_concurrency(
            args.cases, args.concurrency, args.delay, in_process=args.in_process_stub
        )
    )
    for result in results:
        print(result.render())
    return 0 if all(r.ok for r in results) else 1
