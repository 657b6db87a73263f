"""The results folder: `<results>/<timestamp>/<slug>/run_N.{json,txt}` and the summaries.

    <results>/2026-03-09_14-05-11/
        card_replace_damaged/run_1.json   run_1.txt
        summary.json   summary.txt   summary.md
    (+ the --junit file wherever it was asked for)

Layout and field names follow Rasa's `eval/results/<timestamp>/` (reference §4), so people
and tools used to those files can read these. Each run is written the moment it finishes
(atomically), and the summaries when the command ends or is interrupted. `summary.json`
accumulates across commands that share a timestamp (as Rasa's does): entries of earlier
commands are kept and the same scenario's counts are added up, and run files continue the
numbering instead of overwriting.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING

from pydantic import BaseModel, Field, ValidationError

from ..writer import atomic_write_text, contained, safe_slug
from ._junit import junit_xml
from ._record import RunRecord
from ._render import run_text, summary_markdown, summary_text

if TYPE_CHECKING:
    from ._execute import RunReport

TIMESTAMP_FORMAT = "%Y-%m-%d_%H-%M-%S"
_RUN_FILE = re.compile(r"^run_(\d+)\.json$")


class SummaryEntry(BaseModel):
    """One scenario's line of `summary.json` (Rasa's keys first)."""

    scenario_name: str
    scenario_slug: str
    runs_passed: int
    runs_total: int
    runs_errored: int
    duration_s: float
    runs_failed: int = 0
    runs_assertions_only: int = 0
    """Passing runs whose criteria were unjudged (no judge model)."""
    pass_rate: float = 0.0
    """runs_passed / runs_total (Anychat `samples` are reported this way)."""
    dialect: str | None = None
    case_path: str | None = None


class Totals(BaseModel):
    passed: int = 0
    failed: int = 0
    errored: int = 0
    total: int = 0
    assertions_only: int = 0


class Summary(BaseModel):
    """`summary.json`."""

    wall_clock_s: float
    entries: list[SummaryEntry] = Field(default_factory=list)
    timestamp: str = ""
    target: str = ""
    target_note: str = ""
    """What the target is not (`RunReport.target_note`), when it says."""
    totals: Totals = Field(default_factory=Totals)
    interrupted: bool = False
    """Ctrl-C (or a cancellation) stopped the command; only finished runs are counted."""
    runs_planned: int = 0
    """Runs the command(s) meant to make; more than `totals.total` when interrupted."""


def summarize(
    records: Sequence[RunRecord],
    *,
    timestamp: str,
    target: str,
    wall_clock_s: float,
    interrupted: bool = False,
    previous: Summary | None = None,
    planned: int | None = None,
    target_note: str | None = None,
) -> Summary:
    """Per-scenario entries (in first-run order) and totals, merged onto `previous`."""
    entries: dict[str, SummaryEntry] = {
        e.scenario_slug: e.model_copy() for e in (previous.entries if previous else [])
    }
    for r in records:
        entry = entries.setdefault(
            r.scenario_slug,
            SummaryEntry(
                scenario_name=r.scenario_name,
                scenario_slug=r.scenario_slug,
                runs_passed=0,
                runs_total=0,
                runs_errored=0,
                duration_s=0.0,
                dialect=r.dialect,
                case_path=r.case_path,
            ),
        )
        entry.runs_total += 1
        entry.runs_passed += r.status == "passed"
        entry.runs_failed += r.status == "failed"
        entry.runs_errored += r.status == "errored"
        entry.runs_assertions_only += r.passed and not r.judged
        entry.duration_s = round(entry.duration_s + r.duration_s, 3)
    totals = Totals()
    for entry in entries.values():
        entry.pass_rate = round(entry.runs_passed / entry.runs_total, 4) if entry.runs_total else 0
        totals.passed += entry.runs_passed
        totals.failed += entry.runs_failed
        totals.errored += entry.runs_errored
        totals.total += entry.runs_total
        totals.assertions_only += entry.runs_assertions_only
    return Summary(
        wall_clock_s=round(wall_clock_s + (previous.wall_clock_s if previous else 0.0), 3),
        entries=list(entries.values()),
        timestamp=timestamp,
        target=target
        if not previous or previous.target in ("", target)
        else f"{previous.target}, {target}",
        target_note=target_note or (previous.target_note if previous else ""),
        totals=totals,
        interrupted=interrupted or bool(previous and previous.interrupted),
        runs_planned=(previous.runs_planned if previous else 0)
        + (planned if planned is not None else len(records)),
    )


class ResultsWriter:
    """Writes one command's results under `<root>/<timestamp>/`."""

    def __init__(
        self, root: Path, *, timestamp: str | None = None, junit: Path | None = None
    ) -> None:
        self.root = Path(root)
        self.timestamp = safe_slug(timestamp or datetime.now().strftime(TIMESTAMP_FORMAT))
        self.dir = contained(self.root, self.root / self.timestamp)
        self.junit = junit
        self._previous = _read_summary(self.dir / "summary.json")

    def first_run_number(self, slug: str) -> int:
        """1, or one past the highest run file an earlier command left for `slug`."""
        folder = self.dir / safe_slug(slug)
        numbers = (
            [int(m.group(1)) for p in folder.glob("run_*.json") if (m := _RUN_FILE.match(p.name))]
            if folder.is_dir()
            else []
        )
        return max(numbers, default=0) + 1

    def run_path(self, record: RunRecord, suffix: str = ".json") -> Path:
        """`<dir>/<slug>/run_N.json`; the slug is made safe and the path checked to stay
        inside the results folder (slugs come from case content)."""
        name = f"run_{int(record.run_index)}{suffix}"
        return contained(self.dir, self.dir / safe_slug(record.scenario_slug) / name)

    def write_run(self, record: RunRecord) -> Path:
        path = self.run_path(record)
        atomic_write_text(path, json.dumps(record.to_json(), indent=2, ensure_ascii=False) + "\n")
        atomic_write_text(self.run_path(record, ".txt"), run_text(record))
        return path

    def write_summary(self, report: RunReport) -> Summary:
        summary = summarize(
            report.records,
            timestamp=self.timestamp,
            target=report.target,
            wall_clock_s=report.wall_clock_s,
            interrupted=report.interrupted,
            previous=self._previous,
            planned=report.planned,
            target_note=report.target_note,
        )
        self.dir.mkdir(parents=True, exist_ok=True)
        atomic_write_text(self.dir / "summary.json", summary.model_dump_json(indent=2) + "\n")
        atomic_write_text(self.dir / "summary.txt", summary_text(summary, report.records))
        atomic_write_text(self.dir / "summary.md", summary_markdown(summary, report.records))
        if self.junit is not None:
            atomic_write_text(
                self.junit, junit_xml(report.records, wall_clock_s=report.wall_clock_s)
            )
        return summary


def _read_summary(path: Path) -> Summary | None:
    if not path.is_file():
        return None
    from ..documents import UnreadableFile, read_json

    try:
        return Summary.model_validate(read_json(path))
    except (UnreadableFile, ValidationError, ValueError):
        return None


__all__ = ["TIMESTAMP_FORMAT", "ResultsWriter", "Summary", "SummaryEntry", "Totals", "summarize"]
