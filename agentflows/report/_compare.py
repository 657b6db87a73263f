"""Two batches side by side: which cases regressed, which were fixed, what changed.

`casegen report RESULTS --compare BASELINE`: RESULTS is the new batch, BASELINE the one it
is measured against. Cases are matched by slug. A case's status is the batch status of its
runs (`passed` only when every run passed). A regression is a case that passed in the
baseline and fails now; a fix one that failed or errored and passes now; a case that errors
now is listed apart (a harness failure says nothing about the agent). For a regression the
checks that passed before and fail now are named, so the cause is visible without opening
both run files.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from evalcore.lexicon.en.run_findings import DETAIL_SUBJECT

from ._load import Batch, CaseRuns

KINDS = ("regressed", "fixed", "now_errored", "still_failing", "added", "removed", "unchanged")


@dataclass(frozen=True)
class Change:
    slug: str
    name: str
    kind: str
    before: str | None
    """The baseline's status, None for a case the baseline does not have."""
    after: str | None
    before_runs: str = ""
    """`passed/total` runs in the baseline."""
    after_runs: str = ""
    newly_failing: tuple[str, ...] = ()
    """Checks that passed in the baseline and fail now (`assertion 2 memory_was_set`)."""
    newly_passing: tuple[str, ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {
            "slug": self.slug,
            "case": self.name,
            "change": self.kind,
            "before": self.before,
            "after": self.after,
            "before_runs": self.before_runs,
            "after_runs": self.after_runs,
            "newly_failing": list(self.newly_failing),
            "newly_passing": list(self.newly_passing),
        }


@dataclass
class Comparison:
    baseline: str
    current: str
    changes: list[Change] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    """What makes the comparison less than like for like (other targets)."""

    def of(self, kind: str) -> list[Change]:
        return [c for c in self.changes if c.kind == kind]

    @property
    def counts(self) -> dict[str, int]:
        return {kind: len(self.of(kind)) for kind in KINDS}

    def to_json(self) -> dict[str, Any]:
        return {
            "baseline": self.baseline,
            "current": self.current,
            "counts": self.counts,
            "warnings": list(self.warnings),
            **{kind: [c.to_json() for c in self.of(kind)] for kind in KINDS if kind != "unchanged"},
        }


def compare(current: Batch, baseline: Batch) -> Comparison:
    """Every case of either batch, classified (see the module docstring)."""
    out = Comparison(baseline=str(baseline.dir), current=str(current.dir))
    now, then = current.summary.target, baseline.summary.target
    if now and then and now != then:
        out.warnings.append(
            f"the batches ran against different targets ({then} before, {now} now): a change "
            "may be the target's, not the agent's"
        )
    for case in current.cases:
        out.changes.append(_change(baseline.case(case.slug), case))
    for case in baseline.cases:
        if current.case(case.slug) is None:
            out.changes.append(_change(case, None))
    return out


def _change(before: CaseRuns | None, after: CaseRuns | None) -> Change:
    either = after or before
    assert either is not None
    kind = _kind(before.status if before else None, after.status if after else None)
    failing, passing = _flips(before, after) if before and after else ((), ())
    return Change(
        slug=either.slug,
        name=either.name,
        kind=kind,
        before=before.status if before else None,
        after=after.status if after else None,
        before_runs=f"{before.passed_runs}/{len(before.runs)}" if before else "",
        after_runs=f"{after.passed_runs}/{len(after.runs)}" if after else "",
        newly_failing=failing,
        newly_passing=passing,
    )


def _kind(before: str | None, after: str | None) -> str:
    if before is None:
        return "added"
    if after is None:
        return "removed"
    if after == "errored" and before != "errored":
        return "now_errored"
    if before == "passed":
        return "unchanged" if after == "passed" else "regressed"
    if after == "passed":
        return "fixed"
    return "still_failing" if after == "failed" else "unchanged"


def _outcomes(case: CaseRuns) -> dict[str, bool]:
    """Each check of the case and whether it held in every run (`assertion 1 skill_activated`
    is `goals.assertions[0]`)."""
    out: dict[str, bool] = {}
    for run in case.runs:
        for position, item in enumerate(run.assertions):
            number = _int(item.get("index"), position) + 1
            subject = _subject(str(item.get("detail") or ""))
            key = f"assertion {number} {item.get('type', '')} {subject}".strip()
            out[key] = out.get(key, True) and item.get("passed") is True
        for criterion in run.criteria:
            if criterion.verdict == "unjudged":
                continue
            key = f"criterion {criterion.index}: {criterion.criterion}"
            out[key] = out.get(key, True) and criterion.verdict == "pass"
    return out


def _flips(before: CaseRuns, after: CaseRuns) -> tuple[tuple[str, ...], tuple[str, ...]]:
    old, new = _outcomes(before), _outcomes(after)
    failing = tuple(k for k, ok in new.items() if not ok and old.get(k) is True)
    passing = tuple(k for k, ok in new.items() if ok and old.get(k) is False)
    return failing, passing


#: The id an assertion's detail names first: `expected tool_executed order_replacement
#: (source local); …` and `tool_executed order_replacement: matched …` alike.
_SUBJECT = DETAIL_SUBJECT


def _subject(detail: str) -> str:
    """What the assertion is about (a tool, skill, memory key or response), so `assertion 5
    tool_executed` says which tool; empty where the detail names none."""
    match = _SUBJECT.match(detail)
    return match.group(1) if match else ""


def _int(value: Any, default: int) -> int:
    return value if isinstance(value, int) and not isinstance(value, bool) else default


__all__ = ["KINDS", "Change", "Comparison", "compare"]
