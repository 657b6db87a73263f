"""Reference agent and mutation score per project: does the suite casegen drafts hold?

For each Mantle project of the corpus (default `tests/data/corpus`) and `examples/bank`:
`generate all --model offline` into a temporary folder, then the suite is played against
the reference agent (`mantle:DIR`) and every mutant derived from the project (`casegen
mutate`). Figures per project: happy paths the reference agent passes, all cases it passes,
mutants killed of those that apply, the equivalent ones (no correct conversation tells
them from the reference agent: proven by the definitions or on the planner's explored paths;
left out of the score, each with its reason), the raw score over every mutant, and the
surviving mutants by kind. The same drafts without
verification (`--no-verify`) are played against the reference agent too: how many of the
cases the drafter writes a correct agent passes before verification repairs or drops any.

    python -m benchmarks mutation
    python -m benchmarks mutation --project harbor_mutual --json
    python -m benchmarks mutation --markdown docs/benchmarks.md

A case the reference agent fails cannot kill a mutant (it fails for a reason of its own), so
the mutation score counts only the suite's passing cases. Nothing is written into projects.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ._offline import generate_all_offline
from .corpus import BANK, CORPUS, REPO, corpus_projects

SECTION_START = "<!-- mutation-scores:start -->"
SECTION_END = "<!-- mutation-scores:end -->"


@dataclass
class ProjectMutation:
    name: str
    cases: int = 0
    passed: int = 0
    happy: int = 0
    happy_passed: int = 0
    mutants: int = 0
    """Mutants that can behave differently (the score's denominator)."""
    killed: int = 0
    equivalent: list[dict[str, str]] = field(default_factory=list)
    outside: list[dict[str, str]] = field(default_factory=list)
    """Survivors only an outside service's answer marks (not scored, in the raw figures)."""
    survivors: list[dict[str, str]] = field(default_factory=list)
    failing: list[str] = field(default_factory=list)
    unverified_cases: int = 0
    unverified_passed: int = 0
    unverified_failing: list[str] = field(default_factory=list)
    seconds: float = 0.0

    def survivors_by_reason(self) -> dict[str, int]:
        reasons: dict[str, int] = {}
        for survivor in self.survivors:
            reason = survivor.get("reason", "unexplained")
            reasons[reason] = reasons.get(reason, 0) + 1
        if self.outside:
            reasons["outside"] = len(self.outside)
        return reasons

    @property
    def unexplained(self) -> int:
        return self.survivors_by_reason().get("unexplained", 0)

    def survivors_by_kind(self) -> dict[str, int]:
        kinds: dict[str, int] = {}
        for survivor in self.survivors:
            kind = survivor["id"].partition(":")[0]
            kinds[kind] = kinds.get(kind, 0) + 1
        return kinds

    @property
    def score(self) -> float:
        return self.killed / self.mutants if self.mutants else 1.0

    @property
    def raw_score(self) -> float:
        """Killed over every mutant, the equivalent and outside ones included."""
        total = self.mutants + len(self.equivalent) + len(self.outside)
        return self.killed / total if total else 1.0

    def to_json(self) -> dict[str, Any]:
        return {
            "project": self.name,
            "cases": self.cases,
            "reference_passed": self.passed,
            "happy_paths": self.happy,
            "happy_paths_passed": self.happy_passed,
            "mutants": self.mutants,
            "killed": self.killed,
            "score": round(self.score, 4),
            "raw": {
                "mutants": self.mutants + len(self.equivalent) + len(self.outside),
                "killed": self.killed,
                "score": round(self.raw_score, 4),
            },
            "equivalent": self.equivalent,
            "outside": self.outside,
            "survivors_by_kind": self.survivors_by_kind(),
            "survivors_by_reason": self.survivors_by_reason(),
            "unexplained": self.unexplained,
            "survivors": self.survivors,
            "failing_cases": self.failing,
            "unverified_cases": self.unverified_cases,
            "unverified_passed": self.unverified_passed,
            "unverified_failing_cases": self.unverified_failing,
            "seconds": round(self.seconds, 1),
        }


async def _unverified(project_dir: Path, root: Path) -> tuple[int, list[str]]:
    """The drafts without verification, played against the reference agent only:
    (cases, the slugs it fails)."""
    from evalcore.agents.reference import ReferenceTarget
    from evalcore.runner import RunOptions, collect_cases, run_cases
    from evalcore.simulator import SimulatorSettings

    await generate_all_offline(project_dir, root, verify=False)
    suite = root / "cases"
    cases = collect_cases([suite], project=project_dir) if suite.is_dir() else []
    target = ReferenceTarget(project_dir)
    options = RunOptions(parallel=4, simulator=SimulatorSettings(project=target.project))
    report = await run_cases(cases, target, options.with_models())
    return len(cases), sorted(r.scenario_slug for r in report.records if r.status != "passed")


async def measure(
    project_dir: Path, *, concurrency: int = 4, unverified: bool = True
) -> ProjectMutation:
    """Generate the project's suite offline, then play it against the reference and mutants."""
    from agentflows.mutate import mutate
    from evalcore.runner import collect_cases

    started = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="casegen-mutation-") as tmp:
        root = Path(tmp)
        await generate_all_offline(project_dir, root / "verified")
        suite = root / "verified" / "cases"
        cases = collect_cases([suite], project=project_dir) if suite.is_dir() else []
        report = await mutate(cases, project_dir, concurrency=concurrency)
        raw = await _unverified(project_dir, root / "unverified") if unverified else (0, [])
    types = {c.slug: str(getattr(c, "type", "") or "") for c in cases}
    out = ProjectMutation(project_dir.name, cases=len(cases))
    out.passed = sum(s == "passed" for s in report.reference.values())
    happy = [s for s in report.reference if types.get(s) == "happy_path" or "happy" in s]
    out.happy = len(happy)
    out.happy_passed = sum(report.reference[s] == "passed" for s in happy)
    out.failing = sorted(s for s, st in report.reference.items() if st != "passed")
    out.mutants = len(report.results)
    out.killed = sum(r.killed for r in report.results)
    out.equivalent = [
        {
            "id": m.id,
            "reason": m.equivalent or "",
            "proof": "explored paths" if m.id in report.explored else "definitions",
        }
        for m in report.equivalent
    ]
    out.outside = [
        {"id": r.mutant.id, "behaviour": r.mutant.behaviour, **report.reason(r).to_json()}
        for r in report.outside
    ]
    out.survivors = [
        {"id": r.mutant.id, "behaviour": r.mutant.behaviour, **report.reason(r).to_json()}
        for r in report.survivors()
    ]
    out.unverified_cases, out.unverified_failing = raw
    out.unverified_passed = out.unverified_cases - len(out.unverified_failing)
    out.seconds = time.perf_counter() - started
    with contextlib.suppress(ValueError):
        out.name = str(project_dir.resolve().relative_to(REPO))
    return out


def markdown_table(results: Sequence[ProjectMutation]) -> str:
    lines = [
        "| project | happy paths pass | cases pass | unverified cases pass | mutants killed "
        "| equivalent | score | raw score | survivors by kind |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for r in results:
        kinds = ", ".join(f"{k} {n}" for k, n in sorted(r.survivors_by_kind().items())) or "none"
        raw = f"{r.unverified_passed}/{r.unverified_cases}" if r.unverified_cases else "-"
        total = r.mutants + len(r.equivalent) + len(r.outside)
        lines.append(
            f"| `{Path(r.name).name}` | {r.happy_passed}/{r.happy} | {r.passed}/{r.cases} | "
            f"{raw} | {r.killed}/{r.mutants} | {len(r.equivalent)} | {r.score:.0%} | "
            f"{r.killed}/{total} = {r.raw_score:.0%} | {kinds} |"
        )
    return "\n".join(lines)


def survivor_table(results: Sequence[ProjectMutation]) -> str:
    """One row per surviving mutant: its kind, id and the reason class it survives for."""
    lines = ["| project | survivor | reason | why |", "|---|---|---|---|"]
    for r in results:
        for survivor in r.survivors:
            why = str(survivor.get("why", "")).replace("|", "\\|")
            lines.append(
                f"| `{Path(r.name).name}` | `{survivor['id']}` | "
                f"{survivor.get('reason', 'unexplained')} | {why} |"
            )
    if len(lines) == 2:
        lines.append("| - | none | - | - |")
    return "\n".join(lines)


def reason_table(results: Sequence[ProjectMutation]) -> str:
    from agentflows.mutate import REASONS

    lines = [
        "| project | " + " | ".join(REASONS) + " |",
        "|---|" + "---|" * len(REASONS),
    ]
    totals = dict.fromkeys(REASONS, 0)
    for r in results:
        counts = r.survivors_by_reason()
        for reason in REASONS:
            totals[reason] += counts.get(reason, 0)
        cells = " | ".join(str(counts.get(reason, 0)) for reason in REASONS)
        lines.append(f"| `{Path(r.name).name}` | {cells} |")
    lines.append("| all | " + " | ".join(str(totals[reason]) for reason in REASONS) + " |")
    return "\n".join(lines)


def markdown_section(results: Sequence[ProjectMutation]) -> str:
    body = [
        SECTION_START,
        "",
        "`python -m benchmarks mutation`: `casegen generate all --model offline` on each",
        "project, the suite played against the reference agent (`mantle:DIR`) and every",
        'mutant (`casegen mutate`); "unverified" is the same drafting with `--no-verify`,',
        "played against the reference agent only. Mutants killed counts the mutants that",
        "apply; equivalent ones (no correct conversation tells them apart: the definitions",
        "or the planner's explored paths prove it) and outside ones (only an outside",
        "service's answer marks them) are listed apart and not scored; the raw score",
        "counts every mutant.",
        "",
        markdown_table(results),
        "",
        "Why each mutant survives, by reason class (`agentflows/mutate/_reasons.py`, derived",
        "from the definitions and the reference agent's runs of the passing cases; docs/",
        'verification.md says what each class means; "unexplained" is a survivor a passing',
        "case reaches with no proven reason: a gap of the suite):",
        "",
        reason_table(results),
        "",
        survivor_table(results),
        "",
        SECTION_END,
    ]
    return "\n".join(body)


def write_markdown(path: Path, results: Sequence[ProjectMutation]) -> None:
    """Replace the marked section of `path`, or append it under its own heading."""
    section = markdown_section(results)
    text = path.read_text(encoding="utf-8") if path.exists() else ""
    if SECTION_START in text and SECTION_END in text:
        before, rest = text.split(SECTION_START, 1)
        text = before + section + rest.split(SECTION_END, 1)[1]
    else:
        text = text.rstrip("\n") + "\n\n## Reference agent and mutation score\n\n" + section + "\n"
    path.write_text(text, encoding="utf-8")


async def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks mutation")
    parser.add_argument("--corpus", type=Path, default=CORPUS, help="folder of Mantle projects")
    parser.add_argument("--project", action="append", help="only this corpus project (repeat)")
    parser.add_argument("--no-bank", action="store_true", help="leave examples/bank out")
    parser.add_argument("--concurrency", type=int, default=4, help="mutants played at once")
    parser.add_argument("--markdown", type=Path, help="write the table to this markdown file")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument(
        "--no-unverified", action="store_true", help="skip the --no-verify pass rate"
    )
    args = parser.parse_args(argv)
    try:
        projects = corpus_projects(args.corpus, args.project)
    except ValueError as exc:
        print(exc)
        return 2
    if not args.no_bank:
        projects = [BANK, *projects]
    if not projects:
        print(f"no Mantle projects under {args.corpus}")
        return 2
    results = [
        await measure(p, concurrency=args.concurrency, unverified=not args.no_unverified)
        for p in projects
    ]
    if args.json:
        print(json.dumps({"projects": [r.to_json() for r in results]}, indent=2))
    else:
        print(markdown_table(results))
        for r in results:
            name = Path(r.name).name
            for case in r.failing:
                print(f"  {name}: the reference agent fails {case}")
            for item in r.equivalent:
                print(f"  {name}: equivalent {item['id']}: {item['reason']}")
            for survivor in r.survivors:
                print(
                    f"  {name}: survives {survivor['id']} ({survivor.get('reason')}): "
                    f"{survivor.get('why')}"
                )
        print(f"unexplained survivors: {sum(r.unexplained for r in results)}")
    if args.markdown:
        write_markdown(args.markdown, results)
    return 0
