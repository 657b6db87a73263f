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
from datetime import datetime
from pathlib import Path

from pydantic import ValidationError

from ..documents import UnreadableFile, read_json
from ..lexicon.notation.file_names import RUN_FILE as _RUN_FILE
from ..writer import atomic_write_text, contained, safe_slug
from ._junit import junit_xml
from ._record import RunRecord
from ._render import run_text, summary_markdown, summary_text
from ._report import RunReport, Summary, summarize

TIMESTAMP_FORMAT = "%Y-%m-%d_%H-%M-%S"


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
    try:
        return Summary.model_validate(read_json(path))
    except (UnreadableFile, ValidationError, ValueError):
        return None


__all__ = ["TIMESTAMP_FORMAT", "ResultsWriter"]
