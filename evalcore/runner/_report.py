"""The report of one `casegen run`: every finished run in case order, the exit code it
means and the `--json` document."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

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


__all__ = ["RunReport"]
