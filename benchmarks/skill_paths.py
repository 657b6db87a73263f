"""Plan figures per Mantle project: `python -m benchmarks.skill_paths [DIR ...] [--json]`.

For each project (default: every project under `tests/data/corpus/`, then `examples/bank`):
skills, behaviours planned per kind, happy paths whose walk reaches a success signal of the
skill model (target 100%), confirmation-gated tools with a refusal behaviour (target 100%),
and the uncertainties the skill model recorded.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from agentflows.planning._mantle_figures import plan_figures
from evalcore.definitions import load_project

REPO = Path(__file__).resolve().parents[1]


def default_projects() -> list[Path]:
    corpus = REPO / "tests" / "data" / "corpus"
    found = (
        sorted(p for p in corpus.iterdir() if (p / "skills").is_dir()) if corpus.is_dir() else []
    )
    return [*found, REPO / "examples" / "bank"]


def _percent(part: int, whole: int) -> str:
    return f"{100 * part / whole:.0f}%" if whole else "n/a"


def main(argv: list[str]) -> int:
    as_json = "--json" in argv
    dirs = [Path(a) for a in argv if not a.startswith("--")] or default_projects()
    rows = {}
    for folder in dirs:
        project = load_project(folder)
        if project.mantle is None:
            print(f"{folder}: not a Mantle project", file=sys.stderr)
            continue
        rows[folder.name] = plan_figures(project)
    if as_json:
        print(json.dumps(rows, indent=2))
        return 0
    for name, f in rows.items():
        print(
            f"{name}: {f['skills']} skills; happy paths reaching success "
            f"{f['happy_reaching_success']}/{f['happy_paths']} "
            f"({_percent(f['happy_reaching_success'], f['happy_paths'])}); gated tools with a "
            f"refusal {f['gated_with_refusal']}/{f['gated_tools']} "
            f"({_percent(f['gated_with_refusal'], f['gated_tools'])}); "
            f"uncertainties {f['uncertainties']}"
            + (
                f"; happy paths with no success signal {f['happy_without_signal']}"
                if f["happy_without_signal"]
                else ""
            )
        )
        print("  planned: " + ", ".join(f"{k} {v}" for k, v in f["behaviours"].items()))
        for missing in f["happy_missing_success"]:
            print(f"  no success signal reached: {missing}")
        for tool in f["gated_without_refusal"]:
            print(f"  gated tool without a refusal: {tool}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
