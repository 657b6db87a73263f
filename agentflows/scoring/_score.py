"""Score a Mantle scenario suite against the project it was drafted from.

    score = await score_suite([Path("generated_cases/mantle")], Path("examples/bank"))
    score.figures["happy"].value     # 1.0
    score.misses()                   # figures below their goal

The seven figures and their goals are `FIGURES`; docs/scoring.md defines each.
"""

from __future__ import annotations

import asyncio
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from evalcore.definitions import load_project
from evalcore.errors import UserError

from ._cases import load_suite
from ._duplicates import NEAR_DUPLICATE_JACCARD, files_in_pairs, near_duplicate_pairs
from ._goals import Share, goal_figures
from ._rasa import file_problems
from .filler import bad_lines, project_ids


@dataclass(frozen=True)
class Figure:
    key: str
    label: str
    goal: float
    higher_is_better: bool = True
    count: bool = False
    """A count (review errors), not a share."""

    def meets(self, value: float | None) -> bool:
        if value is None:
            return True
        return value >= self.goal if self.higher_is_better else value <= self.goal

    def goal_text(self) -> str:
        sign = "≥ " if self.higher_is_better else "≤ "
        if self.count:
            return f"{self.goal:g}" if self.goal == 0 else f"{sign}{self.goal:g}"
        if self.goal in (0.0, 1.0):
            return f"{self.goal:.0%}"
        return f"{sign}{self.goal:.0%}"


FIGURES: tuple[Figure, ...] = (
    Figure("happy", "happy paths asserting their skill's success", 1.0),
    Figure("refusal", "confirmation-gated tools with a refusal case", 1.0),
    Figure("decisive", "goal-directed cases asserting more than skill_activated", 0.95),
    Figure("filler", "files with a filler answer or an id in user lines", 0.0, False),
    Figure("near_duplicates", "files in a near-duplicate pair of contexts", 0.05, False),
    Figure("rasa_valid", "files valid under the Rasa scenario schema", 1.0),
    Figure("review_errors", "casegen review errors", 0.0, False, count=True),
)
FIGURE_BY_KEY = {f.key: f for f in FIGURES}


@dataclass
class FigureValue:
    value: float | None
    passed: int | None = None
    counted: int | None = None
    missed: list[str] = field(default_factory=list)
    """Files (or `skill/tool`) that lowered the figure, with why where known."""

    @classmethod
    def of(cls, share: Share) -> FigureValue:
        return cls(share.value, share.passed, share.counted, list(share.missed))

    def to_json(self) -> dict[str, Any]:
        return {
            "value": self.value,
            "passed": self.passed,
            "counted": self.counted,
            "missed": self.missed,
        }


@dataclass
class ProjectScore:
    """The figures of one suite against one project, and the counts to read them by."""

    project: str
    files: int
    types: dict[str, int]
    figures: dict[str, FigureValue]
    notes: list[str] = field(default_factory=list)
    name: str = ""
    """A short label for tables (the project folder's name by default)."""

    def misses(self) -> list[str]:
        """Keys of figures that do not meet their goal."""
        return [f.key for f in FIGURES if not f.meets(self.figures[f.key].value)]

    def to_json(self) -> dict[str, Any]:
        return {
            "project": self.project,
            "name": self.name,
            "files": self.files,
            "cases_by_type": self.types,
            "figures": {k: v.to_json() for k, v in self.figures.items()},
            "goals": {f.key: f.goal for f in FIGURES},
            "misses": self.misses(),
            "notes": self.notes,
        }


def _ratio(hit: int, total: int) -> float | None:
    return None if total == 0 else hit / total


async def score_suite(
    paths: Sequence[Path],
    project_dir: Path,
    *,
    skills: Iterable[str] | None = None,
    threshold: float = NEAR_DUPLICATE_JACCARD,
) -> ProjectScore:
    """All seven figures for the scenario files named or found under `paths`.

    Args:
        paths: Scenario files or folders (searched recursively).
        project_dir: The Mantle project the suite was drafted from.
        skills: Skills whose gated tools figure 2 counts (default: those the suite covers).
        threshold: Near-duplicate Jaccard threshold for figure 5.
    """
    from ..review import review_paths  # start-up: tomllib and 99 casegen modules

    project = load_project(project_dir)
    if project.mantle is None:
        raise UserError(
            f"{project_dir} is a {project.kind} project; scoring reads Mantle projects",
            hint="pass --project with a folder holding integrations.yml and skills/*/skill.md",
        )
    cases, notes = load_suite(paths)
    parsed = [c for c in cases if c.parsed]
    goals = goal_figures(cases, project, skills)

    ids = project_ids(project)
    filler_missed = []
    for case in parsed:
        lines = bad_lines(case.context, project, ids)
        if lines:
            unique = list(dict.fromkeys(f'"{line.text}" ({line.why})' for line in lines))
            shown = "; ".join(unique[:3])
            filler_missed.append(f"{case.path}: {shown}")

    pairs = near_duplicate_pairs(cases, threshold)
    in_pairs = files_in_pairs(pairs)

    invalid = []
    for case in cases:
        problems = file_problems(case)
        if problems:
            invalid.append(f"{case.path}: {problems[0]}")

    review_errors: list[str] = []
    if cases:
        report = await review_paths([c.path for c in cases], project=project_dir)
        for file in report.files:
            review_errors += [
                f"{file.path}:{c.line or ''} {c.code}: {c.message}" for c in file.errors
            ]

    n = len(cases)
    figures = {
        "happy": FigureValue.of(goals.happy),
        "refusal": FigureValue.of(goals.refusal),
        "decisive": FigureValue.of(goals.decisive),
        "filler": FigureValue(
            _ratio(len(filler_missed), len(parsed)), len(filler_missed), len(parsed), filler_missed
        ),
        "near_duplicates": FigureValue(
            _ratio(len(in_pairs), len(parsed)),
            len(in_pairs),
            len(parsed),
            [f"{a} ~ {b} ({s:.2f})" for a, b, s in pairs],
        ),
        "rasa_valid": FigureValue(_ratio(n - len(invalid), n), n - len(invalid), n, invalid),
        "review_errors": FigureValue(float(len(review_errors)), None, None, review_errors),
    }
    types = Counter(c.type or "(none)" for c in parsed)
    if n > len(parsed):
        types["(unparsed)"] = n - len(parsed)
    return ProjectScore(
        project=str(project_dir),
        files=n,
        types=dict(sorted(types.items())),
        figures=figures,
        notes=notes,
        name=Path(project_dir).resolve().name,
    )


def score_suite_sync(paths: Sequence[Path], project_dir: Path, **options: Any) -> ProjectScore:
    """`score_suite` for callers without an event loop."""
    return asyncio.run(score_suite(paths, project_dir, **options))


__all__ = [
    "FIGURES",
    "FIGURE_BY_KEY",
    "Figure",
    "FigureValue",
    "ProjectScore",
    "score_suite",
    "score_suite_sync",
]
