"""Verification on many distinct skills: a case's CPU from 40 to 160 skills.

    python -m benchmarks skill-scale [--sizes 40 160] [--repeats 3]

Each size is a synthetic Mantle project (`benchmarks/synthetic.py`) whose copies of bank's
skills have their own words (`distinct=True`), so every skill's opening lines route to that
skill and verification plays each of them against the reference agent and its mutants (with
copied words, every copy's cases route to the first copy and verification skips them).
Offline `generate all`, verification on, runs in this process after a warm-up on bank
(imports, first loads), sizes interleaved, `--repeats` runs each; the figure is the least
CPU per written case of the runs (`time.process_time`: the machine is shared, and a process
whose core is busy with others' work is charged more CPU for the same work, so the least
disturbed run is the one to compare; the median is printed beside it), and the goal is a
case of the largest project costing at most 1.10× a case of the smallest (linear in skills).
Verification's counts (verified, repaired, weak, skipped, dropped; mutants played) are
printed beside, so a run that plays nothing shows.
"""

from __future__ import annotations

import os
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

from ._offline import generate_all_offline
from .generation import Result
from .synthetic import BANK, write_project

GOAL = 1.10


async def _run(project: Path, root: Path) -> tuple[float, int, dict[str, Any]]:
    """CPU seconds, cases written and verification's counts of one `generate all`."""
    with tempfile.TemporaryDirectory(dir=root) as tmp:
        start = time.process_time()
        report = await generate_all_offline(project, Path(tmp))
        cpu = time.process_time() - start
    return cpu, len(report["cases"]), report.get("verification") or {}


async def skill_scale(sizes: tuple[int, ...] = (40, 160), repeats: int = 3) -> Result:
    """Per-case CPU of offline `generate all` with verification at each size."""
    runs: dict[int, list[tuple[float, int, dict[str, Any]]]] = {n: [] for n in sizes}
    load_before = os.getloadavg()[0]
    with tempfile.TemporaryDirectory(prefix="casegen-skills-") as tmp:
        root = Path(tmp)
        projects = {n: write_project(root / f"p{n}", n, distinct=True) for n in sizes}
        await _run(BANK, root)  # warm-up
        for _ in range(repeats):
            for n, project in projects.items():
                runs[n].append(await _run(project, root))
    lines = [f"offline generate all, verification on, least and median of {repeats}, interleaved"]
    per_case: dict[int, float] = {}
    median: dict[int, float] = {}
    for n, measured in runs.items():
        cases = measured[-1][1]
        costs = [cpu / max(1, written) for cpu, written, _ in measured]
        per_case[n] = min(costs)
        median[n] = statistics.median(costs)
        counts = measured[-1][2]
        played = " · ".join(
            f"{key} {counts.get(key, 0)}"
            for key in ("yes", "repaired", "weak", "skipped", "dropped", "mutants_played")
        )
        lines.append(
            f"{n} distinct skills: {cases} cases · {per_case[n] * 1000:.1f} ms CPU per case "
            f"(median {median[n] * 1000:.1f}; runs {', '.join(f'{c * 1000:.1f}' for c in costs)})"
            f" · verification: {played}"
        )
    small, large = min(sizes), max(sizes)
    ratio = per_case[large] / per_case[small]
    lines.append(
        f"a case of {large} skills costs {ratio:.2f}× a case of {small} (goal ≤ {GOAL:.2f}; "
        f"medians {median[large] / median[small]:.2f}×) · load average "
        f"{load_before:.1f} → {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs"
    )
    return Result("verification on many distinct skills", ratio <= GOAL, lines)


async def main(argv: list[str]) -> int:
    import argparse

    parser = argparse.ArgumentParser(prog="python -m benchmarks skill-scale")
    parser.add_argument("--sizes", type=int, nargs="+", default=[40, 160])
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args(argv)
    result = await skill_scale(tuple(args.sizes), args.repeats)
    print(result.render())
    return 0 if result.ok else 1
