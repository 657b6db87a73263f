"""Verification's cost and yield: `generate all --model offline` with and without `verify`.

(a) time: on the largest corpus project (most planned cases), the unverified and the
    verified generation run side by side, alternating, `--repeats` times each, into
    temporary folders, after one warm-up run of each (imports, first loads); each run is
    timed in CPU seconds of this process (`time.process_time`: the machine is shared, so
    wall time measures the neighbours), and the medians give
    `ratio = verified / unverified` (goal ≤ 2.0: the issue's "verification must not
    dominate generation"). Wall seconds are reported alongside.
(b) yield: per project (the corpus and `examples/bank`), what verification found with the
    reference agent as it is: cases verified yes / repaired / weak / skipped, dropped, and
    the mutants played and killed. The largest project's figures come from (a)'s last
    verified run.
(c) the command: `casegen generate all --model offline` as a user runs it, a fresh
    process each time (imports, the first loads and the checkpoint store included), with
    and without `--no-verify`, alternating, `--command-runs` times each (0 with
    `--time-only`); wall seconds and the process's CPU seconds (user + system), medians.
    Reported beside (a), never instead of it: start-up is most of a command's time, so
    this ratio says what a user waits, and (a) what verification itself costs.

`--against DIR[,DIR...]` compares code: this tree and each DIR (another checkout, e.g. a
`git archive` of the commit before a change) each run this benchmark's timing part
(`--time-only --json`) in a fresh process, in turn, `--rounds` times; the medians of all
their runs are printed side by side, so before and after share the machine's load.

Exit 0 when (a)'s ratio meets the goal, 1 when not.
"""

from __future__ import annotations

import argparse
import json
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
CORPUS = REPO / "tests" / "data" / "corpus"
BANK = REPO / "examples" / "bank"
GOAL_RATIO = 2.0


def planned(project: Path) -> int:
    """Cases `generate all` plans for the project (no drafting)."""
    from agentflows.planning import plan_source
    from evalcore.definitions import load_project

    loaded = load_project(project)
    skills = loaded.mantle.skills if loaded.mantle else {}
    return sum(len(plan_source(loaded, "mantle", s, None).behaviors) for s in skills)


def largest(corpus: Path = CORPUS) -> Path:
    projects = sorted(p for p in corpus.iterdir() if (p / "agent.yml").is_file())
    return max(projects, key=lambda p: (planned(p), p.name))


async def generate(project: Path, *, verify: bool, concurrency: int) -> tuple[float, dict, float]:
    """One run: its CPU seconds, its report, its wall seconds."""
    from agentflows.generate import build_request, run_generation

    with tempfile.TemporaryDirectory(prefix="casegen-verify-") as tmp:
        root = Path(tmp)
        request = build_request(
            ["all"],
            project=project,
            model="offline",
            cases_root=str(root / "cases"),
            concurrency=concurrency,
            verify=verify,
        )
        started, cpu = time.perf_counter(), time.process_time()
        report = await run_generation(request, checkpoints=root / "checkpoints.sqlite")
        return time.process_time() - cpu, report, time.perf_counter() - started


CLI = "import sys; from agentflows.cli import main; sys.exit(main(sys.argv[1:]))"


def command(project: Path, *, verify: bool) -> tuple[float, float]:
    """One `casegen generate all` run in a fresh process: its CPU and wall seconds (run in
    a temporary folder, so its checkpoint store and cases are written there)."""
    import os
    import resource
    import subprocess
    import sys

    with tempfile.TemporaryDirectory(prefix="casegen-verify-cli-") as tmp:
        args = ["generate", "all", "--project", str(project.resolve()), "--model", "offline"]
        args += ["--out", str(Path(tmp) / "cases"), *([] if verify else ["--no-verify"])]
        env = {**os.environ, "PYTHONPATH": str(REPO)}
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        started = time.perf_counter()
        done = subprocess.run(
            [sys.executable, "-c", CLI, *args], cwd=tmp, env=env, capture_output=True, text=True
        )
        wall = time.perf_counter() - started
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode not in (0, 1):  # 1: some draft failed, which the figure includes
        raise SystemExit(f"casegen generate exited {done.returncode}: {done.stderr[-400:]}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return cpu, wall


def commands(project: Path, runs: int) -> dict[str, Any]:
    """(c): `runs` alternating pairs after one warm-up pair (bytecode, code caches)."""
    command(project, verify=False)
    command(project, verify=True)
    found: dict[str, list[float]] = {k: [] for k in ("u_cpu", "u_wall", "v_cpu", "v_wall")}
    for _ in range(runs):
        for verify, tag in ((False, "u"), (True, "v")):
            cpu, wall = command(project, verify=verify)
            found[f"{tag}_cpu"].append(round(cpu, 3))
            found[f"{tag}_wall"].append(round(wall, 3))
    med = {k: statistics.median(v) for k, v in found.items()}
    return {
        **found,
        "cpu_ratio": round(med["v_cpu"] / med["u_cpu"], 2),
        "wall_ratio": round(med["v_wall"] / med["u_wall"], 2),
    }


def yield_of(project: Path, report: dict[str, Any]) -> dict[str, Any]:
    summary = report["verification"]
    try:
        name = str(project.resolve().relative_to(REPO))
    except ValueError:
        name = str(project)
    return {
        "project": name,
        "written": len(report["cases"]),
        **{k: summary[k] for k in ("yes", "repaired", "weak", "skipped", "dropped")},
        "mutants_played": summary["mutants_played"],
        "mutants_killed": summary["mutants_killed"],
    }


def yield_table(rows: list[dict[str, Any]]) -> list[str]:
    lines = [
        "| project | written | yes | repaired | weak | skipped | dropped | mutants killed |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for r in rows:
        lines.append(
            f"| `{r['project']}` | {r['written']} | {r['yes']} | {r['repaired']} | {r['weak']} "
            f"| {r['skipped']} | {r['dropped']} | {r['mutants_killed']}/{r['mutants_played']} |"
        )
    return lines


def against(trees: list[Path], *, rounds: int, repeats: int, as_json: bool) -> int:
    """Interleaved timing of this tree and `trees` (see the module docstring)."""
    import subprocess
    import sys

    order = [REPO, *trees]
    runs: dict[Path, dict[str, list[float]]] = {t: {"u": [], "v": []} for t in order}
    for _ in range(max(rounds, 1)):
        for tree in order:
            command = [sys.executable, "-m", "benchmarks", "verify", "--time-only", "--json"]
            done = subprocess.run(
                [*command, "--repeats", str(repeats)],
                cwd=tree,
                capture_output=True,
                text=True,
                check=False,
            )
            if not done.stdout.strip():
                raise SystemExit(f"{tree}: the benchmark printed nothing: {done.stderr[-400:]}")
            found = json.loads(done.stdout)
            runs[tree]["u"] += found["unverified_s"]
            runs[tree]["v"] += found["verified_s"]
    rows = []
    for tree in order:
        plain, verified = (statistics.median(runs[tree][k]) for k in ("u", "v"))
        rows.append(
            {
                "tree": str(tree),
                "unverified_s": round(plain, 3),
                "verified_s": round(verified, 3),
                "ratio": round(verified / plain, 2),
                "runs": len(runs[tree]["u"]),
            }
        )
    if as_json:
        print(json.dumps({"clock": "cpu (time.process_time)", "trees": rows}, indent=2))
    else:
        for r in rows:
            print(
                f"{r['tree']}: unverified {r['unverified_s']:.3f}s · verified "
                f"{r['verified_s']:.3f}s · ratio {r['ratio']:.2f} (medians of {r['runs']})"
            )
    return 0 if rows[0]["ratio"] <= GOAL_RATIO else 1


async def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks verify")
    parser.add_argument("--project", type=Path, help="time this project (default: the largest)")
    parser.add_argument("--repeats", type=int, default=5, help="runs of each kind (default 5)")
    parser.add_argument("--concurrency", type=int, default=4, help="--concurrency of each run")
    parser.add_argument("--time-only", action="store_true", help="skip (b) and (c)")
    parser.add_argument(
        "--command-runs", type=int, default=3, help="(c): command pairs (default 3)"
    )
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument(
        "--against", help="compare with other checkouts (comma-separated folders), interleaved"
    )
    parser.add_argument("--rounds", type=int, default=3, help="turns of each tree (--against)")
    args = parser.parse_args(argv)
    if args.against:
        trees = [Path(t).resolve() for t in args.against.split(",") if t]
        return against(trees, rounds=args.rounds, repeats=args.repeats, as_json=args.json)
    project = args.project or largest()
    plain: list[float] = []
    verified: list[float] = []
    walls: dict[bool, list[float]] = {False: [], True: []}
    last: dict[str, Any] = {}
    for verify in (False, True):  # warm-up: imports and first loads are not verification's
        await generate(project, verify=verify, concurrency=args.concurrency)
    for _ in range(max(args.repeats, 1)):
        seconds, _report, wall = await generate(project, verify=False, concurrency=args.concurrency)
        plain.append(seconds)
        walls[False].append(wall)
        seconds, last, wall = await generate(project, verify=True, concurrency=args.concurrency)
        verified.append(seconds)
        walls[True].append(wall)
    ratio = statistics.median(verified) / statistics.median(plain)
    rows = [yield_of(project, last)]
    if not args.time_only:
        others = sorted(p for p in CORPUS.iterdir() if (p / "agent.yml").is_file())
        for other in [*others, BANK]:
            if other.resolve() != project.resolve():
                report = (await generate(other, verify=True, concurrency=4))[1]
                rows.append(yield_of(other, report))
    runs = 0 if args.time_only else args.command_runs
    as_command = commands(project, runs) if runs > 0 else None
    result = {
        "project": rows[0]["project"],
        "planned": planned(project),
        "clock": "cpu (time.process_time)",
        "unverified_s": [round(s, 3) for s in plain],
        "verified_s": [round(s, 3) for s in verified],
        "unverified_wall_s": [round(s, 3) for s in walls[False]],
        "verified_wall_s": [round(s, 3) for s in walls[True]],
        "ratio": round(ratio, 2),
        "goal": GOAL_RATIO,
        "ok": ratio <= GOAL_RATIO,
        "command": as_command,
        "yield": rows,
    }
    if args.json:
        print(json.dumps(result, indent=2))
    else:
        print(f"## Verification in generate ({result['project']}, {result['planned']} planned)")
        print(
            f"CPU: unverified {statistics.median(plain):.3f}s · verified "
            f"{statistics.median(verified):.3f}s (medians of {len(plain)} interleaved runs) · "
            f"ratio {ratio:.2f} (goal ≤ {GOAL_RATIO:g}) {'ok' if result['ok'] else 'MISSED'}"
        )
        print(
            f"wall: unverified {statistics.median(walls[False]):.2f}s · verified "
            f"{statistics.median(walls[True]):.2f}s (shared machine: noisy)"
        )
        if as_command is not None:
            c = as_command
            print(
                f"the command (a fresh process, {runs} pairs, medians): unverified "
                f"{statistics.median(c['u_wall']):.2f}s wall / {statistics.median(c['u_cpu']):.2f}s"
                f" CPU · verified {statistics.median(c['v_wall']):.2f}s / "
                f"{statistics.median(c['v_cpu']):.2f}s · ratio {c['wall_ratio']:.2f} wall, "
                f"{c['cpu_ratio']:.2f} CPU (start-up included; the goal is read on the line above)"
            )
        print()
        print("\n".join(yield_table(rows)))
    return 0 if result["ok"] else 1
