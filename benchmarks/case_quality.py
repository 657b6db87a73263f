"""`python -m benchmarks case-quality --project DIR [...]`: the figures a Mantle suite is held to.

For each project, the suite `casegen generate all --model offline` writes (or one given with
`--suite`), read from the files as a reviewer reads them:

- **routable skills without a goal case**: a user-routable skill (not hidden, disabled or
  engine-managed) with no happy path (for a hand-off skill, an escalation) that asserts it ran
  and was not written `needs-review`;
- **gates without a refusal**: `casegen score`'s refusal figure (gated tools whose confirmation a
  case refuses);
- **engine-managed targets**: cases whose goal is a skill no user can ask for, or whose detour
  activates one;
- **ids in user words**: files whose quoted user lines (`Open with: "..."`, `say: "..."`) spell a
  skill id (`file_claim`) or, where a skill's name is its id in words, the name;
- **identical-assertion pairs**: two cases of the suite asserting exactly the same;
- **assertions without a why**: assertion entries with no YAML comment beside them;
- with `--runs`: **mutation score** (`casegen mutate`: of the mutants that apply, with the raw
  killed/total and the equivalent mutants beside it) and the goal-directed cases the do-nothing
  and always-declining agents pass (`benchmarks.trivial_agents`).

    python -m benchmarks case-quality --project ../shared/realworld/telco --runs
    python -m benchmarks case-quality --project P --suite OUT/P --generated OUT/P.generate.json
"""

from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
import tempfile
from collections.abc import Iterable
from itertools import combinations
from pathlib import Path
from typing import Any

import yaml

REPO = Path(__file__).resolve().parents[1]
_CLI = "import sys; from agentflows.cli import run; sys.argv[0] = 'casegen'; run()"
#: Quoted lines the simulated user says word for word.
_SAID = re.compile(r'(?:Open with|say(?: instead)?|then say|answer)\s*:\s*"([^"]+)"', re.I)
#: A detour's activation: a skill the case expects to take over mid-task.
_DETOUR_KEYS = ("skill_activated", "skill_interrupted", "skill_resumed")


def _cli(*args: str) -> dict[str, Any]:
    done = subprocess.run(
        [sys.executable, "-c", _CLI, *args], capture_output=True, text=True, cwd=REPO, check=False
    )
    try:
        return json.loads(done.stdout)
    except json.JSONDecodeError:
        raise RuntimeError(f"casegen {args[0]} printed no JSON: {done.stderr[-400:]}") from None


def _cases(suite: Path) -> dict[Path, dict[str, Any]]:
    out = {}
    for path in sorted(suite.rglob("*.yml")):
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
        if isinstance(data, dict) and isinstance(data.get("scenario"), dict):
            out[path] = data["scenario"]
    return out


def _assertions(scenario: dict[str, Any]) -> list[Any]:
    goals = scenario.get("goals") or {}
    return list(goals.get("assertions") or []) if isinstance(goals, dict) else []


def _skills_named(items: Iterable[Any], keys: tuple[str, ...]) -> set[str]:
    """Skill ids the assertions name under `keys` (sequencing steps included)."""
    found: set[str] = set()
    for item in items:
        if not isinstance(item, dict):
            continue
        for key, body in item.items():
            if key == "sequencing" and isinstance(body, list):
                found |= _skills_named(body, keys)
            elif key in keys and isinstance(body, dict) and body.get("skill_id"):
                found.add(str(body["skill_id"]))
    return found


def _uncommented(path: Path) -> tuple[int, int]:
    """(assertion entries, entries with no YAML comment on their line or the line above)."""
    lines = path.read_text(encoding="utf-8").splitlines()
    start = next((i for i, line in enumerate(lines) if line.strip() == "assertions:"), None)
    if start is None:
        return 0, 0
    indent = None
    total = bare = 0
    for i in range(start + 1, len(lines)):
        line = lines[i]
        if not line.strip():
            continue
        width = len(line) - len(line.lstrip())
        if indent is None:
            indent = width
        if width < indent or (width == indent and not line.lstrip().startswith(("-", "#"))):
            break
        if width == indent and line.lstrip().startswith("- "):
            total += 1
            above = lines[i - 1].strip()
            if "#" not in line and not above.startswith("#"):
                bare += 1
    return total, bare


async def measure(
    project: Path, suite: Path, generated: dict[str, Any] | None, runs: bool
) -> dict[str, Any]:
    from agentflows.planning._mantle_routable import engine_managed, user_routable
    from agentflows.scoring import score_suite
    from evalcore.definitions import load_project

    defs = load_project(project).mantle
    if defs is None:
        raise SystemExit(f"{project}: not a Mantle project")
    cases = _cases(suite)
    review = {
        Path(c["path"]).resolve()
        for c in (generated or {}).get("cases", [])
        if c.get("needs_review")
    }
    routable = sorted(s.id for s in defs.skills.values() if user_routable(s))
    unreachable = {s.id for s in defs.skills.values() if not user_routable(s)}
    managed = {s.id for s in defs.skills.values() if engine_managed(s)}
    handoff = {s.id: s.is_handoff for s in defs.skills.values()}

    goal_cases: dict[str, list[str]] = {skill: [] for skill in routable}
    managed_targets: list[str] = []
    said_ids: list[str] = []
    shapes: dict[str, str] = {}
    total = bare = 0
    spelled: dict[str, str] = {}
    for s in defs.skills.values():
        words = s.id.replace("_", " ")
        # the id in words counts where only the id says them: a description that itself
        # says "wants to leave feedback" makes "I want to leave feedback" a person's words,
        # and so a one-word id is a word of the language where the description uses it
        # ("The executive's own calendar: ..." for `calendar`)
        said_by_description = re.search(rf"\b{re.escape(words)}\b", s.description or "", re.I)
        # a one-word id is a word where a longer name says it too ("Book travel")
        name = (s.name or "").strip().lower()
        said_by_name = name != words and re.search(rf"\b{re.escape(words)}\b", name)
        if "_" in s.id or not (said_by_description or said_by_name):
            spelled[s.id] = s.id
        if "_" in s.id and (s.name or "").strip().lower() == words and not said_by_description:
            spelled[f"{s.id} (in words)"] = words
    for path, scenario in cases.items():
        rel = str(path.relative_to(suite))
        asserted = _assertions(scenario)
        started = _skills_named(asserted, ("skill_activated",))
        if path.resolve() not in review:
            for skill in started & set(goal_cases):
                # a hand-off skill's goal is the hand-off: its happy path is an escalation
                goals = ("happy_path", "escalation") if handoff[skill] else ("happy_path",)
                if scenario.get("type") in goals:
                    goal_cases[skill].append(rel)
        owner = path.parent.name
        if owner in unreachable or started & managed - {owner}:
            managed_targets.append(rel)
        said = " ".join(_SAID.findall(str(scenario.get("simulation_context") or "")))
        if any(re.search(rf"\b{re.escape(words)}\b", said, re.I) for words in spelled.values()):
            said_ids.append(rel)
        shapes[rel] = json.dumps(asserted, sort_keys=True)
        entries, uncommented = _uncommented(path)
        total += entries
        bare += uncommented
    identical = [
        (a, b) for a, b in combinations(sorted(shapes), 2) if shapes[a] == shapes[b] != "[]"
    ]
    score = await score_suite([suite], project)
    refusal = score.figures.get("refusal")
    figures: dict[str, Any] = {
        "cases": len(cases),
        "needs_review": len(review),
        "dropped": len((generated or {}).get("dropped") or []) if generated else None,
        "routable_skills": len(routable),
        "routable_without_goal": sorted(k for k, v in goal_cases.items() if not v),
        "gates_refused": None if refusal is None else refusal.value,
        "engine_managed_targets": managed_targets,
        "ids_in_user_words": said_ids,
        "identical_assertion_pairs": identical,
        "assertions": total,
        "assertions_without_why": bare,
    }
    if runs:
        from . import trivial_agents

        mutated = _cli("mutate", str(suite), "--project", str(project), "--json")
        figures["mutation_score"] = mutated.get("score")  # of the mutants that apply
        figures["mutants"] = f"{mutated.get('killed')}/{mutated.get('mutants')}"
        raw = mutated.get("raw") or {}
        figures["mutants_raw"] = f"{raw.get('killed')}/{raw.get('mutants')}"
        figures["equivalent_mutants"] = len(mutated.get("equivalent") or [])
        trivial = trivial_agents.measure(suite)
        figures["trivial_agents_pass"] = {
            name: f"{len(v['passed'])}/{v['goal_directed']}" for name, v in trivial.items()
        }
    return figures


def _row(name: str, values: list[Any]) -> str:
    def shown(value: Any) -> str:
        if isinstance(value, list):
            return str(len(value))
        if isinstance(value, float):
            return f"{value:.2f}"
        if isinstance(value, dict):
            return " / ".join(str(v) for v in value.values())
        return "–" if value is None else str(value)

    return f"| {name} | " + " | ".join(shown(v) for v in values) + " |"


async def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks case-quality")
    parser.add_argument("--project", action="append", required=True, type=Path)
    parser.add_argument("--suite", action="append", default=[], type=Path)
    parser.add_argument("--generated", action="append", default=[], type=Path)
    parser.add_argument("--runs", action="store_true", help="also mutate and trivial agents")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    results: dict[str, dict[str, Any]] = {}
    with tempfile.TemporaryDirectory() as scratch:
        for i, project in enumerate(args.project):
            generated = None
            if i < len(args.suite):
                suite = args.suite[i]
                if i < len(args.generated):
                    generated = json.loads(args.generated[i].read_text(encoding="utf-8"))
            else:
                suite = Path(scratch) / project.name
                generated = _cli(
                    "generate", "all", "--project", str(project), "--model", "offline",
                    "--out", str(suite), "--json",
                )  # fmt: skip
            results[project.name] = await measure(project, suite, generated, args.runs)
    if args.json:
        print(json.dumps(results, indent=2))
        return 0
    names = list(results)
    print("| figure | " + " | ".join(names) + " | goal |")
    print("|---|" + "---|" * (len(names) + 1))
    goals = {
        "routable_without_goal": "0",
        "gates_refused": "1.00",
        "engine_managed_targets": "0",
        "ids_in_user_words": "0",
        "identical_assertion_pairs": "0",
        "assertions_without_why": "0",
        "mutation_score": "≥ 0.85",
        "trivial_agents_pass": "0 / 0",
    }
    for key in results[names[0]]:
        print(_row(key, [results[n].get(key) for n in names]) + f" {goals.get(key, '')} |")
    for name, figures in results.items():
        for key in ("routable_without_goal", "engine_managed_targets", "ids_in_user_words"):
            for item in figures[key]:
                print(f"  {name} {key}: {item}")
    return 0


__all__ = ["measure"]
