"""The report of one `casegen run`: every finished run in case order, the exit code it
means and the `--json` document; and `summary.json`'s model, the reports of the commands
that share a results folder summed up per scenario (`summarize`)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from pydantic import BaseModel, Field

from ._record import RunRecord


@dataclass
class RunReport:
    """Every finished run of one command, in case order."""

    records: list[RunRecord]
    target: str
    timestamp: str
    wall_clock_s: float
    results_dir: str | None = None
    interrupted: bool = False
    planned: int = 0
    """Runs the command meant to make (more than `records` when interrupted)."""
    stopped_early: bool = False
    """`-x`: a run failed or errored, so the runs not yet started were skipped."""
    target_note: str | None = None
    """What the target is not (its `caveat`): `mantle:` is casegen's reading, not the agent."""

    @property
    def passed(self) -> int:
        return sum(r.status == "passed" for r in self.records)

    @property
    def failed(self) -> int:
        return sum(r.status == "failed" for r in self.records)

    @property
    def errored(self) -> int:
        return sum(r.status == "errored" for r in self.records)

    @property
    def exit_code(self) -> int:
        """0 when every run passed, 1 when any failed, 3 when some errored and none failed."""
        if self.failed:
            return 1
        if self.errored:
            return 3
        return 0

    def to_json(self) -> dict[str, Any]:
        """The `casegen run --json` document."""
        return {
            "results_dir": self.results_dir,
            "target": self.target,
            "target_note": self.target_note,
            "timestamp": self.timestamp,
            "interrupted": self.interrupted,
            "stopped_early": self.stopped_early,
            "runs": [r.brief() for r in self.records],
            "failures": [r.recap() for r in self.records if not r.passed],
            "summary": {
                "passed": self.passed,
                "failed": self.failed,
                "errored": self.errored,
                "total": len(self.records),
                "planned": self.planned,
                "assertions_only": sum(r.passed and not r.judged for r in self.records),
                "wall_clock_s": self.wall_clock_s,
            },
        }


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


__all__ = ["RunReport", "Summary", "SummaryEntry", "Totals", "summarize"]
