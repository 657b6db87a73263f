"""Typed state of the generation flow (plain JSON-able dicts, so it checkpoints cleanly)."""

from __future__ import annotations

from typing import Annotated, Any, Literal, NotRequired, TypedDict

CaseStatus = Literal["drafted", "repaired", "valid", "invalid", "failed", "dropped", "duplicate"]
"""`dropped`: valid, but review before writing found an error no fix removes (not written).
`duplicate`: not drafted, its planned case asserts what an earlier one's does (`error`:
`twin:<id>`; `_planned_twins`)."""


class CaseWork(TypedDict):
    """One planned case on its way through draft → validate → repair."""

    behavior: dict[str, Any]
    data: dict[str, Any] | None
    status: CaseStatus
    findings: list[dict[str, Any]]
    """Current error findings (JSON form)."""
    repairs: list[dict[str, Any]]
    """Every repair applied: `{code, path, before, after, reason, by}` (by: rules | model)."""
    attempts: int
    """Model/engine calls spent on this case (draft + model repairs)."""
    deterministic_done: bool
    model_rounds: int
    error: str | None
    usage: dict[str, Any]
    verification: NotRequired[dict[str, Any]]
    """What the `verify` step found (`Verdict.to_json()`); absent until it ran."""
    error_kind: NotRequired[str | None]
    """Why drafting failed, when the endpoint was to blame: `unreachable`, `auth`,
    `transient` (time-out, rate limit, server error) or `halted` (not attempted after an
    earlier case found the endpoint unusable). `--resume` drafts these cases again."""
    needs_review: NotRequired[str]
    """Why the draft is written as drafted for a person to review (its goal rests on
    assertions the definitions do not justify)."""
    reviewed: NotRequired[bool]
    """Review's rules ran on it already (in its draft task, `nodes.settle`)."""
    edits: NotRequired[list[dict[str, Any]]]
    """The behaviour's plan edits with their outcome (`accepted`, or `refused` and why),
    as drafting judged them; the report lists them per case."""
    model_parts: NotRequired[list[str]]
    """Fields the model wrote that are kept (the rest is the offline plan's); [] for a
    model-drafted case that is wholly the plan (its engine label says so)."""


#: Failure kinds `--resume` drafts again: the endpoint, not the case, was the problem.
RESUMABLE_KINDS = frozenset({"unreachable", "auth", "transient", "halted"})


def resumable(work: CaseWork) -> bool:
    return work["status"] == "failed" and work.get("error_kind") in RESUMABLE_KINDS


def merge_cases(left: dict[str, CaseWork], right: dict[str, CaseWork]) -> dict[str, CaseWork]:
    """Reducer: parallel draft/repair tasks each update their own case."""
    return {**left, **right}


class GenerateState(TypedDict, total=False):
    request: dict[str, Any]
    run_id: str
    plans: list[dict[str, Any]]
    """Plan per source (behaviours before selection, plus all coverable elements)."""
    behaviors: list[dict[str, Any]]
    """Selected behaviours, in plan order."""
    spread: list[dict[str, Any]]
    """Planned variations a plain run left out to spread the suite, each with the reason."""
    plan_usage: dict[str, Any]
    cases: Annotated[dict[str, CaseWork], merge_cases]
    kept: list[str]
    duplicates: list[dict[str, Any]]
    written: list[dict[str, Any]]
    report: dict[str, Any]


class DraftTask(TypedDict):
    """What one fanned-out `draft` or `repair` task receives."""

    behavior: dict[str, Any]
    work: CaseWork | None
    siblings: list[str]
    """Titles of the other behaviours planned for the same source (keeps drafts distinct)."""
    batch: NotRequired[list[DraftTask]]
    """Offline drafting: this task drafts these behaviours of one source in turn (each
    case is milliseconds of CPU, and the flow's own cost per task was a tenth of that); a
    model's drafts are one task each, so they run `--concurrency` at a time."""
