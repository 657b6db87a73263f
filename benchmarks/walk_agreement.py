"""How far the planner's walk and the reference agent agree on the same behaviours.

    python -m benchmarks walk-agreement
    python -m benchmarks walk-agreement --project ../shared/realworld/telco --json out.json

For every Mantle project (the corpus, examples/bank and any `--project`), every skill the
planner plans and every behaviour it plans there, the planner's walk (`walk_skill`) and the
reference agent run with a scripted user (`reference_walk`) play the same `Setup`. Per
project it prints how many walks agree on the asks (kind, skill, field or tool, in order),
on the events (kind and what they name, in order), on the outcome, and on all three; then
the kinds of disagreement, each with the number of walks showing it and one example. A
walk the reference run cannot play counts as a disagreement of kind `reference error`.
"""

from __future__ import annotations

import argparse
import json
import time
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from agentflows.planning import plan_source
from agentflows.planning._mantle_planner import behavior_setup, channel_memory
from agentflows.planning._mantle_reference_walk import reference_walk
from agentflows.planning._mantle_walk import Walk, walk_skill
from evalcore.definitions import MantleDefinitions, load_project

from .corpus import CORPUS, REPO, corpus_projects


@dataclass
class Agreement:
    """One project's figures."""

    project: str
    walks: int = 0
    asks: int = 0
    events: int = 0
    judged: int = 0
    """Walks whose events agree once a completion the runtime leaves to the model (a skill
    without `complete_when`) is left out of both."""
    outcomes: int = 0
    all: int = 0
    kinds: Counter[str] = field(default_factory=Counter)
    examples: dict[str, str] = field(default_factory=dict)
    seconds: float = 0.0

    def row(self) -> str:
        def share(n: int) -> str:
            return f"{n}/{self.walks} ({100 * n / max(self.walks, 1):.0f}%)"

        return (
            f"{self.project}: walks {self.walks}, asks agree {share(self.asks)}, "
            f"events {share(self.events)} (but judged completions {share(self.judged)}), "
            f"outcome {share(self.outcomes)}, "
            f"all {share(self.all)} [{self.seconds:.1f} s]"
        )


def ask_signature(walk: Walk) -> list[tuple[Any, ...]]:
    return [(a.kind, a.skill, a.field, a.tool) for a in walk.asks]


def event_signature(walk: Walk) -> list[tuple[Any, ...]]:
    out: list[tuple[Any, ...]] = []
    for e in walk.events:
        if e.kind in ("skill_activated", "skill_completed"):
            out.append((e.kind, e.skill))
        elif e.kind in ("block_entered", "block_completed"):
            out.append((e.kind, e.skill, e.block))
        elif e.kind == "memory":
            out.append((e.kind, e.key))
        elif e.kind == "tool":
            out.append((e.kind, e.tool, e.error))
        elif e.kind == "utter":
            out.append((e.kind, e.utter))
        else:
            out.append((e.kind, e.key))
    return out


def _kind(defs: MantleDefinitions, sig: tuple[Any, ...]) -> str:
    """The kind a disagreement is counted under: the ask's or event's kind (a skill's
    completion split by whether the skill has a `complete_when`)."""
    if sig[0] != "skill_completed":
        return str(sig[0])
    skill = defs.skills.get(str(sig[1]))
    condition = skill is not None and (skill.complete_when or {}).get("condition")
    return f"skill_completed ({'with' if condition else 'no'} complete_when)"


def differences(defs: MantleDefinitions, planned: Walk, played: Walk) -> list[tuple[str, str]]:
    """(kind, detail) of each way the two walks differ; [] when they agree."""
    out: list[tuple[str, str]] = []
    for what, sign in (("ask", ask_signature), ("event", event_signature)):
        a, b = sign(planned), sign(played)
        if a == b:
            continue
        only_walk = Counter(a) - Counter(b)
        only_ref = Counter(b) - Counter(a)
        if not only_walk and not only_ref:
            out.append((f"{what}s in another order", f"walk {a} / reference {b}"))
        for sig in only_walk:
            out.append((f"{what} only in the walk: {_kind(defs, sig)}", repr(sig)))
        for sig in only_ref:
            out.append((f"{what} only in the reference: {_kind(defs, sig)}", repr(sig)))
    if planned.outcome != played.outcome:
        out.append((f"outcome: walk {planned.outcome}, reference {played.outcome}", planned.skill))
    return out


def measure(root: Path) -> Agreement:
    """Compare both walks on every behaviour the planner plans for the project at `root`."""
    started = time.perf_counter()
    project = load_project(root)
    assert project.mantle is not None
    figures = Agreement(root.name)
    memory = channel_memory(project.mantle)
    for source in project.mantle.skills:
        try:
            behaviors = plan_source(project, "mantle", source, None).behaviors
        except Exception:  # a skill the planner does not plan
            continue
        for behavior in behaviors:
            setup = behavior_setup(behavior.facts, memory)
            planned = walk_skill(project, source, setup)
            figures.walks += 1
            try:
                played = reference_walk(project, source, setup)
            except Exception as error:  # the reference run could not play it
                kind = f"reference error: {type(error).__name__}"
                figures.kinds[kind] += 1
                figures.examples.setdefault(kind, f"{source} {behavior.id}: {error}")
                continue
            found = differences(project.mantle, planned, played)
            figures.asks += ask_signature(planned) == ask_signature(played)
            figures.events += event_signature(planned) == event_signature(played)
            judged = [
                sig
                for sig in event_signature(played)
                if _kind(project.mantle, sig) == "skill_completed (no complete_when)"
            ]
            figures.judged += [e for e in event_signature(planned) if e not in judged] == [
                e for e in event_signature(played) if e not in judged
            ]
            figures.outcomes += planned.outcome == played.outcome
            figures.all += not found
            for kind in dict.fromkeys(k for k, _ in found):
                figures.kinds[kind] += 1
                detail = next(d for k, d in found if k == kind)
                figures.examples.setdefault(kind, f"{source} {behavior.id}: {detail}"[:300])
    figures.seconds = time.perf_counter() - started
    return figures


def report(results: Iterable[Agreement]) -> str:
    results = list(results)
    lines: list[str] = []
    total = Agreement("all projects")
    for r in results:
        total.walks += r.walks
        total.asks += r.asks
        total.events += r.events
        total.judged += r.judged
        total.outcomes += r.outcomes
        total.all += r.all
        total.seconds += r.seconds
        total.kinds.update(r.kinds)
        for kind, example in r.examples.items():
            total.examples.setdefault(kind, f"{r.project}/{example}")
    lines.append(total.row())
    lines.append("kinds of disagreement (walks showing each, one example):")
    for kind, count in total.kinds.most_common():
        lines.append(f"  {count:5d}  {kind}")
        lines.append(f"         e.g. {total.examples[kind]}")
    return "\n".join(lines)


async def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks walk-agreement")
    parser.add_argument("--project", action="append", type=Path, default=[])
    parser.add_argument("--only", action="store_true", help="only the --project folders")
    parser.add_argument("--json", type=Path, help="write the figures here as JSON")
    args = parser.parse_args(argv)
    roots = [] if args.only else [*corpus_projects(CORPUS), REPO / "examples" / "bank"]
    roots += args.project
    results = []
    for root in roots:
        figures = measure(root)
        print(figures.row(), flush=True)
        results.append(figures)
    print(report(results))
    if args.json:
        rows = [
            {**{k: v for k, v in r.__dict__.items() if k != "kinds"}, "kinds": dict(r.kinds)}
            for r in results
        ]
        args.json.write_text(json.dumps(rows, indent=2) + "\n")
    return 0
