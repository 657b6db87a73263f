"""Trivial wrong agents: a suite worth merging fails them on every goal-directed case.

A case that a do-nothing agent, one that answers every turn with "Sorry, I can't help with
that.", or one that echoes the person's words back passes checks nothing about the agent's job.
This benchmark runs a Mantle or Anychat suite (or the suites casegen writes for each project
given) against the three, in process, and counts the goal-directed cases (every type but
`out_of_scope` and `adversarial`, whose point may be that the agent declines; Anychat tags them
`out-of-scope` and `adversarial`) that they pass. Goal: 0.

    python -m benchmarks trivial-agents [SUITE_DIR ...] [--project DIR ...]

With `--project`, the suite is generated first (offline, into a temporary folder).
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
AGENTS = {
    "do-nothing": "python:benchmarks.trivial_agents:do_nothing",
    "sorry": "python:benchmarks.trivial_agents:sorry",
    "echo": "python:benchmarks.trivial_agents:echo",
}
_CLI = "import sys; from agentflows.cli import run; sys.argv[0] = 'casegen'; run()"
#: Types whose point may be that the agent declines; a trivial agent may pass them.
NOT_GOAL_DIRECTED = frozenset({"out_of_scope", "adversarial"})


def do_nothing(request: dict[str, Any]) -> dict[str, Any] | None:
    """Answers nothing and does nothing, every turn."""
    return None if request.get("close") else {"messages": [], "events": []}


def sorry(request: dict[str, Any]) -> dict[str, Any] | None:
    """Declines every turn, politely, and does nothing else."""
    if request.get("close") or request.get("turn", {}).get("type") == "start":
        return None
    return {"messages": [{"text": "Sorry, I can't help with that."}], "events": []}


def echo(request: dict[str, Any]) -> dict[str, Any] | None:
    """Says back what the person wrote (a picker's fallback text for a tap), does nothing else."""
    turn = request.get("turn") or {}
    if request.get("close") or turn.get("type") == "start":
        return None
    text = turn.get("text") or turn.get("fallback") or ""
    return {"messages": [{"text": text}] if text else [], "events": []}


def _run(
    suite: Path, target: str, results: Path, project: Path | None = None
) -> list[dict[str, Any]]:
    command = [sys.executable, "-c", _CLI, "run", str(suite), "--target", target]
    command += ["--project", str(project)] if project is not None else []
    command += ["--model", "offline", "--results", str(results), "--json"]
    done = subprocess.run(command, capture_output=True, text=True, cwd=REPO, check=False)
    try:
        payload = json.loads(done.stdout)
    except json.JSONDecodeError:
        raise RuntimeError(f"casegen run printed no JSON: {done.stderr[-500:]}") from None
    return list(payload.get("runs") or [])


def _case_types(suite: Path) -> dict[str, str]:
    """Each case file's type: a Mantle scenario's `type`, an Anychat case's type tag (its
    tags hold one of `happy-path`, `sad-path`, `edge-case`, `adversarial`, `out-of-scope`)."""
    import yaml

    types = {}
    for path in sorted(suite.rglob("*.yml")):
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
        scenario = data.get("scenario") if isinstance(data, dict) else None
        if isinstance(scenario, dict):
            types[path.stem] = str(scenario.get("type") or "")
    for path in sorted(suite.rglob("*.json")):
        data = json.loads(path.read_text(encoding="utf-8"))
        if isinstance(data, dict) and isinstance(data.get("expect"), dict):
            tags = {str(t).replace("-", "_") for t in data.get("tags") or []}
            types[path.stem] = next(iter(sorted(tags & NOT_GOAL_DIRECTED)), "goal")
    return types


def measure(suite: Path, project: Path | None = None) -> dict[str, dict[str, Any]]:
    types = _case_types(suite)
    goal = {stem for stem, kind in types.items() if kind not in NOT_GOAL_DIRECTED}
    figures: dict[str, dict[str, Any]] = {}
    for name, target in AGENTS.items():
        with tempfile.TemporaryDirectory() as scratch:
            runs = _run(suite, target, Path(scratch), project)
        passed = sorted(
            str(run["slug"]) for run in runs if run.get("passed") and run.get("slug") in goal
        )
        figures[name] = {"goal_directed": len(goal), "passed": passed}
    return figures


def _generate(project: Path, out: Path) -> Path:
    command = [sys.executable, "-c", _CLI, "generate", "all", "--project", str(project)]
    command += ["--model", "offline", "--out", str(out), "--json"]
    subprocess.run(command, capture_output=True, text=True, cwd=REPO, check=False)
    return out


async def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks trivial-agents")
    parser.add_argument("suites", nargs="*", type=Path)
    parser.add_argument("--project", action="append", default=[], type=Path)
    args = parser.parse_args(argv)
    default = [] if args.project else [REPO / "generated_cases" / "mantle"]
    suites: list[tuple[Path, Path | None]] = [(s, None) for s in args.suites or default]
    missed = 0
    with tempfile.TemporaryDirectory() as scratch:
        for project in args.project:
            suites.append((_generate(project, Path(scratch) / project.name), project))
        print(
            "| suite | goal-directed cases | passed by do-nothing | passed by sorry "
            "| passed by echo | goal |"
        )
        print("|---|---|---|---|---|---|")
        for suite, project in suites:
            figures = measure(suite, project)
            counts = [len(figures[name]["passed"]) for name in AGENTS]
            missed += sum(counts) > 0
            total = figures["do-nothing"]["goal_directed"]
            print(f"| {suite.name} | {total} | {counts[0]} | {counts[1]} | {counts[2]} | 0 |")
            for name in AGENTS:
                for case in figures[name]["passed"]:
                    print(f"  {name} passes {case}")
    return 1 if missed else 0
