"""Start-up CPU of this tree side by side with another casegen tree, in one run.

    python -m benchmarks speed --only startup --against /tmp/base   # e.g. `git archive` of a commit

Each command (`--help`, `validate` and `sources` on examples/bank) runs in a fresh
interpreter started in each tree's root (`python -c` puts that folder first on `sys.path`,
so each run imports its own tree's casegen with the same libraries), interleaved round by
round after one warm-up per tree (bytecode and casegen's code caches written); the figure
is the median process CPU (user + system) of the runs, with the range beside it. Medians of
interleaved runs, not best-of, so the machine's load at the time weighs on both trees alike.
"""

from __future__ import annotations

import os
import resource
import statistics
import subprocess
import sys
from pathlib import Path

from .generation import Result

REPO = Path(__file__).resolve().parents[1]
CLI = "import sys; from agentflows.cli import main; sys.exit(main(sys.argv[1:]))"
COMMANDS = {
    "--help": ["--help"],
    "validate": ["validate", "examples/bank/eval", "--project", "examples/bank"],
    "sources": ["sources", "--project", "examples/bank"],
}


def _cpu(args: list[str], tree: Path, env: dict[str, str]) -> float:
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run([sys.executable, "-c", CLI, *args], cwd=tree, capture_output=True, env=env)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def side_by_side(baseline: Path, runs: int = 9) -> Result:
    """Median process CPU per command in `baseline` and in this tree, `runs` interleaved
    rounds; goal ≤ 0.25 s for this tree's medians."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    trees = (Path(baseline).resolve(), REPO)
    for tree in trees:  # warm-up: bytecode, the records' and schema checks' code caches
        for args in COMMANDS.values():
            _cpu(args, tree, env)
    cpu: dict[tuple[Path, str], list[float]] = {(t, c): [] for t in trees for c in COMMANDS}
    for _ in range(runs):
        for name, args in COMMANDS.items():
            for tree in trees:
                cpu[tree, name].append(_cpu(args, tree, env))
    lines = [
        f"start-up side by side, {runs} interleaved runs each, medians of process CPU "
        f"(load average {os.getloadavg()[0]:.1f}): {trees[0]} → this tree"
    ]
    ok = True
    for name in COMMANDS:
        before, after = (cpu[tree, name] for tree in trees)
        old, new = statistics.median(before), statistics.median(after)
        ok &= new <= 0.25
        lines.append(
            f"casegen {name}: {old:.3f} s ({min(before):.3f}–{max(before):.3f}) → "
            f"{new:.3f} s ({min(after):.3f}–{max(after):.3f}): {new / old:.2f}× (goal ≤ 0.25 s)"
        )
    return Result("start-up side by side", ok, lines)
