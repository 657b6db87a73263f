"""The flow's `verify` step: each reviewed draft proven against the project before writing.

review → verify (fan-out, one task per valid draft) → dedupe

A draft whose dialect has a reference agent (`Dialect.plays_reference`: Mantle) is played
against it and the mutants on its path (`_verify_mantle.py`); any other against a demo
agent written for the project or a static check (`_verify_other.py`). A draft the verifier
proves wrong is repaired or dropped with the reason (status `dropped`, like review's
drops), except a case for what every suite must cover (a happy path to a skill's goal, the
refusal at a confirmation gate): that one is written as drafted and marked `needs-review`
with the reason, never lost in silence. Every
other draft keeps a `verification` record the report shows. A verifier that crashes skips
that draft's verification, never the run: the case is written `skipped` with `failed`, and
both the report and the case's top say that verification failed and why. `--no-verify` routes review
straight to dedupe.
"""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any, Literal

from langgraph.runtime import Runtime
from langgraph.types import Send

from evalcore.dialects import Dialect
from evalcore.findings import Finding
from evalcore.redact import redact

from ..drafting import DraftContext, Usage
from ..planning import Behavior
from ._verify_types import Verdict, VerifyEnv
from ._write import case_path
from .context import GenerateContext
from .state import CaseWork, DraftTask, GenerateState

Verifier = Callable[[dict[str, Any], VerifyEnv], Awaitable[Verdict]]


def _verifier(dialect: Dialect) -> Verifier:
    """Playing the draft against the reference agent and its mutants where the dialect has
    one (`Dialect.plays_reference`), else against a demo agent or the static check."""
    if dialect.plays_reference:
        from ._verify_mantle import verify_mantle  # start-up: the reference agent, on first use

        return verify_mantle
    from ._verify_other import verify_other  # start-up: 150 casegen modules

    return verify_other


def route_verify(state: GenerateState) -> list[Send] | Literal["dedupe"]:
    """One `verify` task per valid draft not verified yet (a resumed run skips the rest)."""
    request = state.get("request") or {}
    if not request.get("verify", True):
        return "dedupe"
    return [
        Send("verify", DraftTask(behavior=w["behavior"], work=w, siblings=[]))
        for w in state.get("cases", {}).values()
        if w["status"] == "valid" and w["data"] is not None and not w.get("verification")
    ] or "dedupe"


async def verify(task: DraftTask, runtime: Runtime[GenerateContext]) -> dict[str, Any]:
    work = await verify_case(task["work"], runtime.context)  # type: ignore[arg-type]
    return {"cases": {work["behavior"]["id"]: work}}


async def verify_case(work: CaseWork, ctx: GenerateContext) -> CaseWork:
    """One reviewed draft played against the project (see the module docstring)."""
    work = CaseWork(**work)  # type: ignore[typeddict-item]
    behavior = Behavior.model_validate(work["behavior"])
    spent: list[Usage] = []
    env = VerifyEnv(
        project=ctx.project,
        dialect=ctx.dialect,
        path=_case_path(ctx, behavior),
        project_label=ctx.request.project,
        concurrency=ctx.request.concurrency,
        model_repair=(
            _model_repair(ctx, behavior, spent, accepted_edits(work)) if _can_repair(ctx) else None
        ),
        repair_rounds=ctx.request.repair_rounds,
    )
    try:
        verdict = await _verifier(ctx.dialect)(work["data"] or {}, env)
    except Exception as exc:  # a verifier bug skips this draft's verification only
        reason = redact(f"verification failed: {type(exc).__name__}: {exc}")
        if work.get("needs_review"):
            reason = f"{work['needs_review']}; {reason}"
        verdict = Verdict(
            "skipped", "none", work["data"] or {}, reason=reason, method="none", failed=True
        )
    if verdict.outcome == "dropped" and must_cover(behavior):
        verdict = Verdict(
            "needs-review",
            verdict.against,
            work["data"] or {},
            reason=verdict.reason,
            notes=verdict.notes,
            method=verdict.method,
        )
    if work.get("needs_review") and verdict.outcome in ("yes", "repaired", "dropped"):
        reason = work["needs_review"]
        if verdict.outcome == "dropped" and verdict.reason:
            reason = f"{reason}; verification: {verdict.reason}"
        verdict = Verdict(
            "needs-review",
            verdict.against,
            work["data"] or {},
            reason=reason,
            notes=verdict.notes,
            method=verdict.method,
        )
    usage = sum(spent, Usage.model_validate(work["usage"]))
    work.update(
        data=verdict.data,
        repairs=[*work["repairs"], *verdict.fixes],
        usage=usage.model_dump(),
        attempts=work["attempts"] + len(spent),
        verification=verdict.to_json(),
    )
    if verdict.outcome == "dropped":
        work.update(
            status="dropped",
            error=f"verification: {verdict.reason}",
            findings=[
                {
                    "code": "verification-failed",
                    "severity": "error",
                    "path": "",
                    "message": verdict.reason or "",
                    "context": {"against": verdict.against},
                }
            ],
        )
    return work


def edit_verifier(
    ctx: GenerateContext,
    behavior: Behavior,
    *,
    goal_lost: Callable[[dict[str, Any], dict[str, Any]], bool],
    plays: bool = True,
) -> Callable[[dict[str, Any], dict[str, Any]], Awaitable[str | None]]:
    """How drafting verifies a plan edit (None: kept; else the reason it is refused).

    An edit never turns the case into another one: one that takes what the case is for
    (`goal_lost(before, after)`: its skill's success, a gate's refusal, its decisive
    checks) is refused. Then, where the run verifies (`plays`), the case before the edit
    and the case with it are played as a draft is (the reference agent, its allowed
    variants and the mutants on the path; no repair), and the edit refused, with the
    verifier's reason, when the case with it is proven wrong, rewritten or fails an
    allowed variant where the case before it was not. Where the case before the edit fails
    too, the edit is not what verification weighs (the draft's own verification does)."""
    env = VerifyEnv(
        project=ctx.project,
        dialect=ctx.dialect,
        path=_case_path(ctx, behavior),
        project_label=ctx.request.project,
        concurrency=ctx.request.concurrency,
        repair_rounds=0,
    )
    played: dict[str, Verdict] = {}

    async def play(data: dict[str, Any]) -> Verdict:
        """Each case once: an accepted edit's case is the next edit's case before it. The
        verifier is loaded on the first edit, not before a draft that proposes none."""
        key = json.dumps(data, sort_keys=True, default=str)
        if key not in played:
            played[key] = await _verifier(ctx.dialect)(data, env)
        return played[key]

    async def verify_edit(before: dict[str, Any], after: dict[str, Any]) -> str | None:
        if goal_lost(before, after):
            return (
                "turns the case into another one: it takes what the case is for (its "
                "skill's success, a gate's refusal or its decisive checks)"
            )
        if not plays:
            return None
        base = await play(before)
        if base.outcome != "yes":
            return None
        edited = await play(after)
        if edited.outcome in ("dropped", "repaired"):
            why = edited.reason or "the reference agent fails it"
            return f"fails verification: {edited.outcome}: {why}"
        failing = sorted(set(edited.variants_played) - set(edited.variants_passed))
        if failing:
            return f"fails verification: an allowed variant fails it: {', '.join(failing)}"
        return None

    return verify_edit


#: Behaviour kinds every suite must cover: a case for one is never dropped in silence.
MUST_COVER = frozenset({"happy", "refusal"})


def must_cover(behavior: Behavior) -> bool:
    """Whether the behaviour is one a suite must have (its skill's goal, a gate's refusal)."""
    return (behavior.facts or {}).get("kind") in MUST_COVER


def _case_path(ctx: GenerateContext, behavior: Behavior) -> Path:
    return case_path(ctx, behavior)


def _can_repair(ctx: GenerateContext) -> bool:
    return (
        bool(ctx.engine.can_repair)
        and ctx.engine.name != "offline"
        and ctx.request.repair_rounds > 0
    )


def accepted_edits(work: CaseWork) -> tuple[dict[str, Any], ...]:
    """The plan edits the case's draft accepted (a repair re-applies them)."""
    return tuple(e for e in work.get("edits") or [] if e.get("status") == "accepted")


def _model_repair(
    ctx: GenerateContext,
    behavior: Behavior,
    spent: list[Usage],
    accepted: tuple[dict[str, Any], ...] = (),
) -> Callable[[dict[str, Any], list[Finding]], Awaitable[dict[str, Any] | None]]:
    """The engine's findings-based repair, with the tokens it costs kept for the report."""

    async def repair(data: dict[str, Any], findings: list[Finding]) -> dict[str, Any] | None:
        draft_ctx = DraftContext(
            project=ctx.project,
            dialect=ctx.request.dialect,
            behavior=behavior,
            direction=ctx.request.direction,
            accepted_edits=accepted,
        )
        try:
            result = await ctx.engine.repair(draft_ctx, data, findings)
        except Exception:  # a failed model round leaves the deterministic repair
            spent.append(Usage())
            return None
        spent.append(result.usage)
        return result.data

    return repair


__all__ = [
    "MUST_COVER",
    "accepted_edits",
    "edit_verifier",
    "must_cover",
    "route_verify",
    "verify",
    "verify_case",
]
