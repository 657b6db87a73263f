"""`python -m benchmarks speed`'s start-up section: each light command's process CPU, its
floor (the libraries it needs imported alone) and where one process spends it, by stage."""

from __future__ import annotations

import json
import resource
import subprocess
import sys
from pathlib import Path

from .generation import Result

REPO = Path(__file__).resolve().parents[1]


def _cpu(argv: list[str], repeats: int = 5, env: dict[str, str] | None = None) -> float:
    best = float("inf")
    for _ in range(repeats):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        subprocess.run(argv, cwd=REPO, capture_output=True, check=False, env=env)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        used = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
        best = min(best, used)
    return best


#: What each command cannot start without: the libraries it uses, imported alone. Plain
#: options are coerced without typer's pydantic adapters and casegen's definitions and
#: findings are plain records, so neither command needs pydantic; `validate` checks valid
#: files with fastjsonschema's compiled check alone (jsonschema is imported only to explain
#: a file that check rejects); output that is not a terminal is written without rich.
_FLOORS = {
    "--help": "import typer, rich.console",
    "validate": "import typer, yaml, fastjsonschema",
    "sources": "import typer, yaml",
}


def startup(repeats: int = 5) -> Result:
    """Best of `repeats` process CPU per command, with the project's bytecode written by a
    warm-up run first (an installed casegen has it; with `PYTHONDONTWRITEBYTECODE=1` set,
    as on this project's shared machine, every start compiled each project module from
    source). Beside it, the floor: an interpreter importing only the libraries the command
    needs."""
    import os

    python = sys.executable
    cli = [python, "-c", _CLI]
    commands = {
        "--help": [*cli, "--help"],
        "validate": [*cli, "validate", "examples/bank/eval", "--project", "examples/bank"],
        "sources": [*cli, "sources", "--project", "examples/bank"],
    }
    cached = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    for argv in commands.values():  # writes __pycache__ (git-ignored)
        subprocess.run(argv, cwd=REPO, capture_output=True, check=False, env=cached)
    bare = _cpu([python, "-c", "pass"], repeats)
    old = _cpu([python, "-c", "import langgraph.graph, git, typer, rich"], repeats)
    lines, ok = [], True
    for name, argv in commands.items():
        used = _cpu(argv, repeats, env=cached)
        floor = _cpu([python, "-c", _FLOORS[name]], repeats)
        ok &= used <= 0.25
        lines.append(
            f"casegen {name}: {used:.3f} s CPU (goal ≤ 0.25 s) · floor {floor:.3f} s "
            f"({_FLOORS[name].removeprefix('import ')}) · "
            f"{used / old:.2f}× the CPU of importing langgraph+git+typer+rich alone"
        )
    lines.append(f"for scale: bare interpreter {bare:.3f} s · langgraph+git+typer+rich {old:.3f} s")
    for name in ("validate", "sources"):
        stages = _breakdown(commands[name][3:], repeats, cached)
        lines.append(
            f"casegen {name}, one process, where the CPU goes (medians of {repeats}): "
            + " · ".join(f"{stage} {cpu:.3f} s" for stage, cpu in stages)
        )
    return Result("start-up", ok, lines)


_CLI = "import sys; from agentflows.cli import main; sys.exit(main(sys.argv[1:]))"

#: One command's start in stages, each the process CPU it adds: the libraries it needs in
#: the order the floor imports them, then casegen's own modules, then the command itself.
_STAGES = """
import contextlib, io, json, sys, time
marks = [("interpreter", time.process_time())]
def mark(name): marks.append((name, time.process_time()))
import typer; mark("typer")
import yaml; mark("yaml")
if sys.argv[1] == "validate":
    import fastjsonschema; mark("fastjsonschema")
import evalcore.findings, evalcore.limits; mark("findings, limits (3 records)")
import evalcore.definitions; mark("definitions (28 records, readers)")
from agentflows.cli import main; mark("the rest of the CLI's modules")
with contextlib.redirect_stdout(io.StringIO()):
    main(sys.argv[1:])
mark("the command (options, project, files, output)")
print(json.dumps([(n, t - p) for (n, t), (_, p) in zip(marks, [("", 0.0), *marks[:-1]])]))
"""


def _breakdown(args: list[str], repeats: int, env: dict[str, str]) -> list[tuple[str, float]]:
    import statistics

    runs = []
    for _ in range(repeats):
        done = subprocess.run(
            [sys.executable, "-c", _STAGES, *args], cwd=REPO, capture_output=True, env=env
        )
        runs.append(json.loads(done.stdout.decode().strip().splitlines()[-1]))
    return [(name, statistics.median(r[i][1] for r in runs)) for i, (name, _) in enumerate(runs[0])]


__all__ = ["startup"]
