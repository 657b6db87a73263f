"""Suite quality on a corpus: `generate all --model offline` per project, then the seven figures.

Each Mantle project under the corpus folder (default `tests/data/corpus`), plus
`examples/bank`, gets a fresh offline generation of every skill into a temporary folder;
the suite is scored with `agentflows.scoring` (definitions: docs/scoring.md) and the table
prints one column per project and the mean. Nothing is written into the projects.

    python -m benchmarks corpus
    python -m benchmarks corpus --corpus DIR --project NAME --markdown docs/benchmarks.md

`score_corpus()` is the same, for a test that holds the corpus to the goals.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import tempfile
from collections.abc import Iterable, Sequence
from pathlib import Path

from agentflows.scoring import FIGURES, ProjectScore, score_suite
from evalcore.definitions import load_project, project_kind_of

from ._offline import generate_all_offline

REPO = Path(__file__).resolve().parents[1]
CORPUS = REPO / "tests" / "data" / "corpus"
BANK = REPO / "examples" / "bank"
SECTION_START = "<!-- corpus-scores:start -->"
SECTION_END = "<!-- corpus-scores:end -->"


def corpus_projects(corpus_dir: Path, names: Iterable[str] | None = None) -> list[Path]:
    """The Mantle project folders directly under `corpus_dir` (only `names`, if given)."""
    wanted = set(names) if names is not None else None
    if not corpus_dir.is_dir():
        return []
    found = [
        p
        for p in sorted(corpus_dir.iterdir())
        if project_kind_of(p) == "mantle" and (wanted is None or p.name in wanted)
    ]
    if wanted is not None:
        missing = wanted - {p.name for p in found}
        if missing:
            raise ValueError(
                f"no Mantle project {', '.join(sorted(missing))} under {corpus_dir} "
                f"(projects: {', '.join(p.name for p in found) or 'none'})"
            )
    return found


async def score_project(project_dir: Path) -> ProjectScore:
    """Generate every skill offline into a temporary folder and score that suite."""
    with tempfile.TemporaryDirectory(prefix="casegen-corpus-") as tmp:
        root = Path(tmp)
        # The drafter's own figures; what verification adds is `benchmarks/verify.py`.
        await generate_all_offline(project_dir, root, verify=False)
        suite = root / "cases"
        defs = load_project(project_dir).mantle
        skills = list(defs.skills) if defs is not None else None
        score = await score_suite([suite] if suite.is_dir() else [], project_dir, skills=skills)
        _relabel(score, suite)
    return score


def _relabel(score: ProjectScore, suite: Path) -> None:
    """Show paths relative to the (deleted) temporary suite folder."""
    prefix = str(suite) + "/"
    for figure in score.figures.values():
        figure.missed = [m.replace(prefix, "") for m in figure.missed]
    score.notes = [n.replace(prefix, "") for n in score.notes]
    with contextlib.suppress(ValueError):
        score.project = str(Path(score.project).resolve().relative_to(REPO))


async def score_projects(projects: Sequence[Path]) -> list[ProjectScore]:
    return [await score_project(p) for p in projects]


def score_corpus(
    corpus_dir: Path = CORPUS, projects: Iterable[str] | None = None
) -> list[ProjectScore]:
    """One `ProjectScore` per Mantle project of `corpus_dir` (only `projects`, if given)."""
    return asyncio.run(score_projects(corpus_projects(corpus_dir, projects)))


def mean(scores: Sequence[ProjectScore], key: str) -> float | None:
    values = [s.figures[key].value for s in scores if s.figures[key].value is not None]
    return None if not values else sum(v for v in values if v is not None) / len(values)


def _cell(key: str, value: float | None) -> str:
    if value is None:
        return "n/a"
    figure = next(f for f in FIGURES if f.key == key)
    return f"{value:.1f}".removesuffix(".0") if figure.count else f"{value:.0%}"


def markdown_table(scores: Sequence[ProjectScore], reference: ProjectScore | None = None) -> str:
    """Figures as rows: one column per corpus project, their mean, the reference project
    (`examples/bank`, kept out of the mean), and the goal."""
    heads = (
        [f"`{s.name}`" for s in scores] + ["mean"] + ([f"`{reference.name}`"] if reference else [])
    )
    lines = ["| figure | " + " | ".join(heads) + " | goal |", "|---|" + "---|" * (len(heads) + 1)]
    for figure in FIGURES:
        cells = [_cell(figure.key, s.figures[figure.key].value) for s in scores]
        cells.append(f"**{_cell(figure.key, mean(scores, figure.key))}**")
        if reference:
            cells.append(_cell(figure.key, reference.figures[figure.key].value))
        note = "" if figure.higher_is_better else " (lower is better)"
        lines.append(
            f"| {figure.label}{note} | " + " | ".join(cells) + f" | {figure.goal_text()} |"
        )
    files = [str(s.files) for s in scores] + [
        f"{sum(s.files for s in scores) / max(len(scores), 1):.1f}"
    ]
    if reference:
        files.append(str(reference.files))
    lines.append("| files | " + " | ".join(files) + " | |")
    return "\n".join(lines)


def type_lines(scores: Sequence[ProjectScore]) -> list[str]:
    return [f"- `{s.name}`: " + ", ".join(f"{n} {t}" for t, n in s.types.items()) for s in scores]


def markdown_section(scores: Sequence[ProjectScore], reference: ProjectScore | None = None) -> str:
    body = [
        SECTION_START,
        "",
        "`python -m benchmarks corpus`: `casegen generate all --model offline` on each project,",
        "scored with `casegen score` (figures defined in [scoring.md](scoring.md)); the mean is",
        "over the corpus projects, `examples/bank` is shown beside it.",
        "",
        markdown_table(scores, reference),
        "",
        "Cases per type:",
        "",
        *type_lines([*scores, *([reference] if reference else [])]),
        "",
        SECTION_END,
    ]
    return "\n".join(body)


def write_markdown(
    path: Path, scores: Sequence[ProjectScore], reference: ProjectScore | None = None
) -> None:
    """Replace the marked section of `path`, or append it (a new file gets just it)."""
    section = markdown_section(scores, reference)
    text = path.read_text(encoding="utf-8") if path.exists() else ""
    if SECTION_START in text and SECTION_END in text:
        before, rest = text.split(SECTION_START, 1)
        after = rest.split(SECTION_END, 1)[1]
        text = before + section + after
    elif text:
        text = text.rstrip("\n") + "\n\n## Suite quality on the corpus\n\n" + section + "\n"
    else:
        text = "# Suite quality on the corpus\n\n" + section + "\n"
    path.write_text(text, encoding="utf-8")


async def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks corpus")
    parser.add_argument("--corpus", type=Path, default=CORPUS, help="folder of Mantle projects")
    parser.add_argument("--project", action="append", help="only this corpus project (repeat)")
    parser.add_argument("--no-bank", action="store_true", help="leave examples/bank out")
    parser.add_argument("--markdown", type=Path, help="write the table to this markdown file")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--details", action="store_true", help="list what lowered each figure")
    args = parser.parse_args(argv)
    try:
        projects = corpus_projects(args.corpus, args.project)
    except ValueError as exc:
        print(exc)
        return 2
    if not projects and args.no_bank:
        print(f"no Mantle projects under {args.corpus}")
        return 2
    scores = await score_projects(projects)
    reference = None if args.no_bank else await score_project(BANK)
    if args.json:
        payload = {
            "projects": [s.to_json() for s in scores],
            "mean": {f.key: mean(scores, f.key) for f in FIGURES},
            "reference": reference.to_json() if reference else None,
        }
        print(json.dumps(payload, indent=2))
    else:
        print(markdown_table(scores, reference))
        print()
        print("\n".join(type_lines([*scores, *([reference] if reference else [])])))
    if args.details and not args.json:
        for score in [*scores, *([reference] if reference else [])]:
            for figure in FIGURES:
                for item in score.figures[figure.key].missed:
                    print(f"{score.name} · {figure.key}: {item}")
    if args.markdown:
        write_markdown(args.markdown, scores, reference)
    return 0
