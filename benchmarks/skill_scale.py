"""Verification on many distinct skills: a case's CPU from 40 to 160 skills.

    python -m benchmarks skill-scale [--sizes 40 160] [--repeats 3] [--against DIR]

Each size is a synthetic Mantle project (`benchmarks/synthetic.py`) whose copies of bank's
skills have their own words (`distinct=True`), so every skill's opening lines route to that
skill and verification plays each of them against the reference agent and its mutants (with
copied words, every copy's cases route to the first copy and verification skips them).
Offline `generate all`, verification on, runs in one worker process per casegen tree
(`benchmarks/_skill_worker.py`) after a warm-up on bank (imports, first loads), sizes
interleaved, `--repeats` runs each; `--against DIR` (another casegen tree, e.g. a
`git archive` of an earlier commit) runs that tree's worker on the same projects,
interleaved run by run with this tree's, and prints its lines beside (`[tree] `). The
figure is the least CPU per written case of the runs (`time.process_time`: the machine is
shared, and a process whose core is busy with others' work is charged more CPU for the
same work, so the least disturbed run is the one to compare; the median is printed beside
it), and the goal is a case of the largest project costing at most 1.10× a case of the
smallest (linear in skills). Verification's counts (verified, repaired, weak, skipped,
dropped; mutants played) are printed beside, so a run that plays nothing shows.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import IO, Any

from ._skill_worker import MARK
from .generation import Result
from .synthetic import REPO, write_project

GOAL = 1.10
WORKER = Path(__file__).with_name("_skill_worker.py")

Run = tuple[float, int, dict[str, Any]]


class _Worker:
    """A tree's worker process: one `generate all` per request, answered in order."""

    def __init__(self, tree: Path, log: IO[str]) -> None:
        env = {**os.environ, "PYTHONPATH": str(tree)}
        self.proc = subprocess.Popen(
            [sys.executable, str(WORKER)],
            cwd=tree,
            env=env,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=log,
            text=True,
        )

    def run(self, project: Path, root: Path) -> Run:
        """CPU seconds, cases written and verification's counts of one `generate all`."""
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self.proc.stdin.write(json.dumps({"project": str(project), "root": str(root)}) + "\n")
        self.proc.stdin.flush()
        for line in self.proc.stdout:
            if line.startswith(MARK):
                answer = json.loads(line[len(MARK) :])
                return answer["cpu"], answer["cases"], answer["counts"]
        raise RuntimeError(f"skill-scale worker exited ({self.proc.wait()}); see its log")

    def close(self) -> None:
        if self.proc.stdin is not None:
            self.proc.stdin.close()
        self.proc.wait()


async def skill_scale(
    sizes: tuple[int, ...] = (40, 160), repeats: int = 3, against: Path | None = None
) -> Result:
    """Per-case CPU of offline `generate all` with verification at each size, for this
    tree and, with `against`, for that tree too (runs interleaved)."""
    trees = (*([Path(against).resolve()] if against is not None else []), REPO)
    runs: dict[tuple[Path, int], list[Run]] = {(t, n): [] for t in trees for n in sizes}
    load_before = os.getloadavg()[0]
    with tempfile.TemporaryDirectory(prefix="casegen-skills-") as tmp:
        root = Path(tmp)
        projects = {n: write_project(root / f"p{n}", n, distinct=True) for n in sizes}
        with (root / "workers.log").open("w") as log:
            workers = {tree: _Worker(tree, log) for tree in trees}
            try:
                for tree, worker in workers.items():
                    worker.run(tree / "examples" / "bank", root)  # warm-up
                for _ in range(repeats):
                    for n, project in projects.items():
                        for tree, worker in workers.items():
                            runs[tree, n].append(worker.run(project, root))
            except RuntimeError as exc:
                log.flush()
                tail = (root / "workers.log").read_text()[-2000:]
                raise RuntimeError(f"{exc}:\n{tail}") from None
            finally:
                for worker in workers.values():
                    worker.close()
    lines = [f"offline generate all, verification on, least and median of {repeats}, interleaved"]
    ratio: dict[Path, float] = {}
    for tree in trees:
        prefix = f"[{tree}] " if against is not None else ""
        per_case: dict[int, float] = {}
        median: dict[int, float] = {}
        for n in sizes:
            measured = runs[tree, n]
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
                f"{prefix}{n} distinct skills: {cases} cases · {per_case[n] * 1000:.1f} ms CPU "
                f"per case (median {median[n] * 1000:.1f}; runs "
                f"{', '.join(f'{c * 1000:.1f}' for c in costs)}) · verification: {played}"
            )
        small, large = min(sizes), max(sizes)
        ratio[tree] = per_case[large] / per_case[small]
        lines.append(
            f"{prefix}a case of {large} skills costs {ratio[tree]:.2f}× a case of {small} "
            f"(goal ≤ {GOAL:.2f}; medians {median[large] / median[small]:.2f}×) · load average "
            f"{load_before:.1f} → {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs"
        )
    return Result("verification on many distinct skills", ratio[REPO] <= GOAL, lines)


async def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks skill-scale")
    parser.add_argument("--sizes", type=int, nargs="+", default=[40, 160])
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument(
        "--against", type=Path, help="also run this casegen tree's generation, interleaved"
    )
    args = parser.parse_args(argv)
    result = await skill_scale(tuple(args.sizes), args.repeats, args.against)
    print(result.render())
    return 0 if result.ok else 1
