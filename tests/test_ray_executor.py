"""`casegen run --executor ray` on a local Ray instance (num_cpus=2): the same results folder
as the local executor, a worker lost mid-run retried and counted once, Ctrl-C cancelling the
outstanding tasks. Skipped when Ray is not installed (`make test-ray` installs it)."""

from __future__ import annotations

import asyncio
import json
import os
import shutil
import sys
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from conftest import REPO

ray = pytest.importorskip("ray")

from evalcore.agents import UserTurn, parse_target  # noqa: E402
from evalcore.runner import ResultsWriter, RunCase, RunOptions, run_cases  # noqa: E402
from evalcore.runner.ray_executor import RayExecutor  # noqa: E402

TESTS = Path(__file__).resolve().parent
CODER = TESTS / "scripted_coder.py"
#: Keys that differ between any two runs (clocks, ids, temporary paths), dropped to compare.
VOLATILE = {
    "timestamp",
    "latency",
    "duration_s",
    "wall_clock_s",
    "conversation_id",
    "command",
    "started_at",
    "time",
}

EVAL = {
    "name": "todo",
    "description": "Create the Todo entity.",
    "prompts": [
        {
            "name": name,
            "prompt": "Create the Todo entity",
            "expectedSkills": ["base44-cli"],
            "checks": [
                {
                    "type": "file-exists",
                    "description": "entity written",
                    "filePath": "base44/entities/todo.jsonc",
                },
                {
                    "type": "file-exists",
                    "description": "the skill was installed for the agent",
                    "filePath": ".claude/skills/base44-cli/SKILL.md",
                },
                {"type": "contains", "description": "says done", "value": "done:"},
                {"type": "contains", "description": "fails on purpose", "value": name},
            ],
        }
        for name in ("first", "second")
    ],
}


@pytest.fixture(scope="module", autouse=True)
def local_ray() -> Iterator[None]:
    os.environ.setdefault("RAY_ENABLE_UV_RUN_RUNTIME_ENV", "0")
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    yield
    ray.shutdown()


def _skills_project(tmp_path: Path) -> Path:
    root = tmp_path / "skillsproj"
    skill = root / "skills" / "base44-cli"
    skill.mkdir(parents=True)
    (skill / "SKILL.md").write_text("---\nname: base44-cli\ndescription: CLI.\n---\n", "utf-8")
    fixture = root / "evals" / "todo"
    (fixture / "project").mkdir(parents=True)
    (fixture / "project" / "package.json").write_text('{"name": "todo"}', "utf-8")
    (fixture / "eval.json").write_text(json.dumps(EVAL), "utf-8")
    return fixture


def _normal(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _normal(v) for k, v in value.items() if k not in VOLATILE}
    if isinstance(value, list):
        return [_normal(v) for v in value]
    return value


def _folder(results: Path) -> dict[str, Any]:
    (run_dir,) = [p for p in results.iterdir() if p.is_dir()]
    files = sorted(p.relative_to(run_dir).as_posix() for p in run_dir.rglob("*") if p.is_file())
    data = {
        name: _normal(json.loads((run_dir / name).read_text("utf-8")))
        for name in files
        if name.endswith(".json")
    }
    return {"files": files, "json": data}


def test_ray_results_match_the_local_executors(tmp_path: Path, run_cli) -> None:
    cases = tmp_path / "cases"
    shutil.copytree(REPO / "generated_cases" / "mantle" / "card_replace", cases / "mantle")
    fixture = _skills_project(tmp_path)
    mantle = ["run", cases / "mantle", "--project", REPO / "examples" / "bank"]
    mantle += ["--target", "demo:bank", "--model", "offline", "--runs", "2"]
    base44 = ["run", fixture / "eval.json", "--model", "offline"]
    base44 += ["--target", f'command:"{sys.executable} {CODER} stream {{prompt}}"']
    folders = {}
    for executor in ("local", "ray"):
        out = tmp_path / executor
        code_m, _, err = run_cli(*mantle, "--results", out / "m", "--executor", executor)
        assert code_m == 0, err
        code_b, text, err = run_cli(*base44, "--results", out / "b", "--executor", executor)
        assert code_b == 1, text + err  # the purposely failing check
        folders[executor] = (_folder(out / "m"), _folder(out / "b"))
    assert folders["ray"] == folders["local"]
    base = folders["ray"][1]["json"]
    first = base["todo-first/run_1.json"]
    verdicts = [a["passed"] for a in first["assertions"]]
    assert verdicts == [True, True, True, False, True]  # the skill is on the worker's copy
    assert base["summary.json"]["totals"]["total"] == 2
    runs = 2 * len(list((cases / "mantle").glob("*.yml")))  # --runs 2 of each case
    assert runs >= 20
    assert folders["ray"][0]["json"]["summary.json"]["totals"]["total"] == runs


def _case(slug: str) -> RunCase:
    return RunCase(
        slug=slug,
        name=slug,
        dialect="anychat",
        path=f"/nonexistent/{slug}.json",
        script=[UserTurn(type="text", text="hello")],
        checks={},
    )


async def test_a_run_whose_worker_dies_is_retried_and_counted_once(tmp_path: Path) -> None:
    slug = f"crash-{uuid.uuid4().hex[:8]}"
    from ray_agents import marker

    marker(slug).unlink(missing_ok=True)
    target = parse_target(f"python:{TESTS / 'ray_agents.py'}:crash_once")
    writer = ResultsWriter(tmp_path / "results")
    try:
        report = await run_cases(
            [_case(slug)], target, RunOptions(), results=writer, executor=RayExecutor()
        )
    finally:
        died = marker(slug).read_text("utf-8") if marker(slug).exists() else None
        marker(slug).unlink(missing_ok=True)
    assert died is not None  # the first attempt did kill its worker
    assert [r.status for r in report.records] == ["passed"]
    assert int(report.records[0].meta["pid"]) != int(died)  # another worker finished it
    assert sorted(p.name for p in (writer.dir / slug).iterdir()) == ["run_1.json", "run_1.txt"]
    summary = json.loads((writer.dir / "summary.json").read_text("utf-8"))
    assert summary["totals"]["total"] == 1 and summary["runs_planned"] == 1


SLEEPER = """
import os, sys, time
open(sys.argv[1], "w").write(str(os.getpid()))
time.sleep(60)
"""


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


async def test_cancelling_the_command_cancels_the_tasks_and_stops_the_agents(
    tmp_path: Path,
) -> None:
    fixture = tmp_path / "fx"
    (fixture / "project").mkdir(parents=True)
    (tmp_path / "sleeper.py").write_text(SLEEPER, "utf-8")
    pid_file = tmp_path / "agent.pid"
    case = RunCase(
        slug="sleepy",
        name="sleepy",
        dialect="base44",
        path=str(fixture / "eval.json"),
        setup={"fixture": str(fixture)},
        checks={"checks": [], "expectedSkills": []},
        prompt=str(pid_file),
    )
    target = parse_target(f'command:"{sys.executable} {tmp_path / "sleeper.py"} {{prompt}}"')
    writer = ResultsWriter(tmp_path / "results")
    task = asyncio.ensure_future(
        run_cases(
            [case, case], target, RunOptions(parallel=2), results=writer, executor=RayExecutor()
        )
    )
    deadline = time.monotonic() + 60
    while not pid_file.exists() and time.monotonic() < deadline:
        await asyncio.sleep(0.2)
    assert pid_file.exists(), "the agent never started"
    await asyncio.sleep(0.5)
    pid = int(pid_file.read_text("utf-8"))
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    summary = json.loads((writer.dir / "summary.json").read_text("utf-8"))
    assert summary["interrupted"] is True and summary["totals"]["total"] == 0
    deadline = time.monotonic() + 20
    while _alive(pid) and time.monotonic() < deadline:
        await asyncio.sleep(0.2)
    assert not _alive(pid), "the cancelled run's agent process is still running"


@pytest.mark.parametrize("inline_bytes", [64 * 1024, 0], ids=["inline", "object-ref"])
async def test_target_and_options_reach_the_workers_inline_or_by_reference(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, inline_bytes: int
) -> None:
    """The target and options, pickled once for the command, travel inside each task's one
    argument when small; over `INLINE_BYTES` they go by object ref, fetched once per
    worker. Either way every run gets them."""
    from evalcore.runner import ray_executor

    monkeypatch.setattr(ray_executor, "INLINE_BYTES", inline_bytes)
    shipped: list[Any] = []
    boxed = ray_executor._boxed
    monkeypatch.setattr(
        ray_executor, "_boxed", lambda r, v: shipped.append(boxed(r, v)) or shipped[-1]
    )
    target = parse_target("python:benchmarks.ray_executor:sleepy_agent")
    cases = [_case(f"box-{inline_bytes}-{i}") for i in range(4)]
    report = await run_cases(cases, target, RunOptions(parallel=2), executor=RayExecutor())
    assert [r.status for r in report.records] == ["passed"] * 4
    by_ref = [isinstance(box[0], ray.ObjectRef) for box in shipped]
    assert by_ref == ([] if inline_bytes else [True])  # one blob: the target and the options


def test_a_worker_builds_a_command_s_setup_once_and_plays_checks_on_its_loop(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """In the task body (run here, in this process): the target, options and judge decoded
    from one blob are reused by the worker's later tasks, the checks run on the worker's
    own thread (its process plays one run at a time), and the record comes back as the
    same record the driver validates."""
    import threading

    from evalcore.runner import _execute, _ray_worker

    threads: list[int] = []
    evaluate = _execute.evaluate_checks

    def recording(checks: Any, trace: Any) -> Any:
        threads.append(threading.get_ident())
        return evaluate(checks, trace)

    monkeypatch.setattr(_execute, "evaluate_checks", recording)
    monkeypatch.setattr(_ray_worker, "_SETUPS", {})
    monkeypatch.setattr(_ray_worker, "_LOOP", None)
    target = parse_target("python:benchmarks.ray_executor:sleepy_agent")
    blob = _ray_worker.setup_blob(target, RunOptions())
    records = [
        _ray_worker.record_of(
            _ray_worker.run_task(  # the blob inside the payload, or boxed beside it
                _ray_worker.task_payload(
                    _case(f"inproc-{i}").model_dump(mode="json"), 1, "s", blob if i else None
                ),
                None if i else [blob],
            )
        )
        for i in range(2)
    ]
    assert [r.status for r in records] == ["passed", "passed"]
    assert records[0].scenario_name == "inproc-0" and records[1].scenario_name == "inproc-1"
    kept = _ray_worker._SETUPS[blob]
    assert _ray_worker._setup(blob, kept.loop) is kept  # built once, reused
    assert threads == [threading.get_ident()] * 2
    assert _execute.checks_inline.get() is False  # only inside the task's own context
    kept.loop.close()
    asyncio.set_event_loop(None)


async def test_the_local_executor_still_plays_checks_off_its_loop(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import threading

    from evalcore.runner import _execute

    threads: list[int] = []
    evaluate = _execute.evaluate_checks
    monkeypatch.setattr(
        _execute,
        "evaluate_checks",
        lambda checks, trace: threads.append(threading.get_ident()) or evaluate(checks, trace),
    )
    target = parse_target("python:benchmarks.ray_executor:sleepy_agent")
    report = await run_cases([_case("local-thread")], target, RunOptions())
    assert [r.status for r in report.records] == ["passed"]
    assert threads and threads[0] != threading.get_ident()
