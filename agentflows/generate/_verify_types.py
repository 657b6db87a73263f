"""What verifying one draft takes and gives back (shared by every dialect's verifier)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from evalcore.definitions import Project
from evalcore.dialects import Dialect
from evalcore.findings import Finding

Outcome = Literal["yes", "repaired", "skipped", "dropped", "needs-review"]
ModelRepair = Callable[[dict[str, Any], list[Finding]], Awaitable[dict[str, Any] | None]]


@dataclass
class VerifyEnv:
    project: Project
    dialect: Dialect
    path: Path
    """Where the case will be written (its slug names the runs)."""
    project_label: str
    """The project as the user named it (`examples/bank`), for `against`."""
    concurrency: int = 4
    model_repair: ModelRepair | None = None
    """The engine's repair with findings, when a model is configured."""
    repair_rounds: int = 1
    """Model repair rounds a failing draft gets, each with the findings of the play
    before it (the request's `repair_rounds`)."""


@dataclass
class Verdict:
    outcome: Outcome
    against: str
    """What the case was played or checked against (`mantle:examples/bank`, `demo:clinic`,
    `static`), or `none` when skipped before anything ran."""
    data: dict[str, Any]
    """The case as it will be written (repaired when `outcome` is `repaired`)."""
    fixes: list[dict[str, Any]] = field(default_factory=list)
    reason: str | None = None
    """Why it was dropped, skipped or is weak."""
    played: list[str] = field(default_factory=list)
    """Mutant ids played (those on the case's path)."""
    killed: list[str] = field(default_factory=list)
    on_path: int = 0
    """Mutants on the case's path (`played` is at most `MAX_PLAYED` of them)."""
    weak: bool = False
    variants_played: list[str] = field(default_factory=list)
    """Allowed variants played (those whose site the case's reference run passed)."""
    variants_passed: list[str] = field(default_factory=list)
    """Of those, the ones the written case passes (all, unless it needs review)."""
    notes: list[str] = field(default_factory=list)
    """The reference agent's notes (what the run depended on but the skill model was unsure
    of)."""
    method: str = "reference"
    """`reference` (Mantle reference agent + mutants), `demo` (a demo agent), `static`
    (every referenced id and check can be satisfied), `none` (skipped)."""
    failed: bool = False
    """The verifier itself failed (raised): the case is written unverified, `skipped`, and
    says so at its top with `reason`."""

    @property
    def label(self) -> str:
        """What the table shows: yes / repaired / weak / dropped / skipped / needs-review."""
        if self.outcome in ("yes", "repaired") and self.weak:
            return "weak"
        return self.outcome

    def to_json(self) -> dict[str, Any]:
        return {
            "verified": self.label,
            "outcome": self.outcome,
            "weak": self.weak,
            "against": self.against,
            "method": self.method,
            "reason": self.reason,
            "mutants_on_path": self.on_path,
            "mutants_played": self.played,
            "mutants_killed": self.killed,
            "variants_played": self.variants_played,
            "variants_passed": self.variants_passed,
            "repairs": self.fixes,
            "notes": self.notes,
            "failed": self.failed,
        }


__all__ = ["ModelRepair", "Outcome", "Verdict", "VerifyEnv"]
