"""The generation flow's nodes: small functions over `GenerateState`.

load → plan → draft (fan-out, `_routes.py`) → validate ⇄ repair → review → verify (fan-out,
`_verify.py`) → dedupe → write → report

A model's draft is one task, and that task settles its case as the answer arrives (`settle`:
validate ⇄ repair, review, verify, the file's text made): the nodes between draft and dedupe
then pass over it, and what follows the last answer is the steps that look at every case.
"""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from types import ModuleType
from typing import Any, Literal

from langgraph.runtime import Runtime
from langgraph.types import Send

from evalcore.definitions import shut_gates, undeclared_set_fields
from evalcore.findings import Finding
from evalcore.llm.errors import failure_kind
from evalcore.redact import redact
from evalcore.repair import repair_data
from evalcore.validation import check_data

from ..drafting import DraftContext, DraftResult, Usage
from ..planning import NOT_WRITTEN, Behavior, plan_source
from . import _selection
from ._dedupe import Pool
from ._engines import model_parts, without_fixed
from ._planned_twins import asserted, case_mark, keep_plan, twin_work
from ._prewrite import prewrite
from ._report import build_report, prejustify
from ._routes import siblings
from ._starter import write_starters
from ._suite import suite_files, unit_fingerprints
from ._verify import accepted_edits, edit_verifier, must_cover, verify_case
from ._verify_report import row_fields
from ._verify_types import Verdict
from ._write import (
    case_path,
    case_target,
    check_manifest,
    prerender,
    update_manifest,
    with_provenance,
    write_one,
)
from .context import GenerateContext
from .state import CaseWork, DraftTask, GenerateState

Ctx = Runtime[GenerateContext]


# --- load & plan ------------------------------------------------------------------------

#: Why a plain run leaves a planned variation out (`agentflows.planning._spread`); the
#: report lists each one, and `--types` or `--count` asks for it.
SPREAD_REASON = (
    "left out to spread the suite over its skills: this skill held over a third of the "
    "planned cases by its variations while another skill had one (ask for it with --types)"
)


async def load(state: GenerateState, runtime: Ctx) -> dict[str, Any]:
    """Record the run: the project is already read into the context."""
    ctx = runtime.context
    return {"run_id": ctx.run_id, "request": ctx.request.model_dump(mode="json")}


async def plan(state: GenerateState, runtime: Ctx) -> dict[str, Any]:
    """Coverage plan per target; the LLM engine may refine it; `--count/--types` select."""
    ctx = runtime.context
    request = ctx.request
    plans: list[dict[str, Any]] = []
    usage = Usage()
    refined: list[list[Behavior]] = []
    for source_plan, behaviors, spent in await _planned(ctx):
        usage = usage + spent
        refined.append(behaviors)
        plans.append(source_plan.model_dump(mode="json"))
    chosen, trimmed = _selection.chosen(refined, request)
    selected = [b.model_dump(mode="json") for b in chosen]
    left_out = [{"behavior": b.id, "reason": SPREAD_REASON} for b in trimmed]
    keep_plan(ctx, chosen, selected)
    return {
        "plans": plans,
        "behaviors": selected,
        "spread": left_out,
        "plan_usage": usage.model_dump(),
    }


async def _planned(ctx: GenerateContext) -> list[tuple[Any, list[Behavior], Usage]]:
    """Each target's plan and its behaviours as the engine refines them, in target order.
    The targets' refining requests are awaited together (at most `--concurrency` at once),
    not one after another; the answers are taken in the targets' order, so the result is
    what refining them one by one gives, and a failed request raises its own error."""
    request = ctx.request
    head = request.kept_head(ctx.project)
    plans = (
        [
            plan_source(ctx.project, request.dialect, source, request.direction)
            for source in request.targets
        ]
        if head is None
        else head.plans
    )
    if ctx.engine.name == "offline":
        return [(plan, plan.behaviors, Usage()) for plan in plans]
    places = asyncio.Semaphore(request.concurrency)

    async def refined(source: str, behaviors: list[Behavior]) -> tuple[list[Behavior], Usage]:
        async with places:
            return await ctx.engine.refine_plan(
                ctx.project, request.dialect, source, behaviors, request.direction
            )

    tasks = [
        asyncio.create_task(refined(source, plan.behaviors))
        for source, plan in zip(request.targets, plans, strict=True)
    ]
    try:
        return [(plan, *(await task)) for plan, task in zip(plans, tasks, strict=True)]
    finally:  # a failed request: the others still out are not left running
        waiting = [task for task in tasks if not task.done()]
        for task in waiting:
            task.cancel()
        await asyncio.gather(*waiting, return_exceptions=True)


# --- draft, validate, repair -------------------------------------------------------------


def _justified() -> ModuleType:
    """Review's justification step (`_justified`), loaded when a draft first needs it."""
    from . import _justified  # start-up: 21 casegen modules

    return _justified


def _context(ctx: GenerateContext, behavior: Behavior, task: DraftTask) -> DraftContext:
    """The draft context of `task`; a behaviour with plan edits gets their verification
    (a first draft) or the ones its draft accepted (a repair re-applies those)."""
    work = task.get("work")
    accepted = None if work is None else accepted_edits(work)
    judges = accepted is None and ctx.engine.name != "offline"

    def goal_lost(before: dict[str, Any], after: dict[str, Any]) -> bool:
        return _justified().lost_goal(before, after, ctx.project)

    return DraftContext(
        project=ctx.project,
        dialect=ctx.request.dialect,
        behavior=behavior,
        direction=ctx.request.direction,
        siblings=tuple(task.get("siblings") or ()),
        verify_edit=(
            edit_verifier(ctx, behavior, goal_lost=goal_lost, plays=ctx.request.verify)
            if judges
            else None
        ),
        accepted_edits=accepted,
        planned=ctx.planned_cases.pop(behavior.id, None) if work is None else None,
    )


def _spent(exc: Exception) -> Usage:
    """Tokens a failed call already cost (LLM errors carry them), so the report stays honest."""
    usage = getattr(exc, "usage", None)
    return usage if isinstance(usage, Usage) else Usage()


async def draft(task: DraftTask, runtime: Ctx) -> dict[str, Any]:
    """Draft the task's case, or each case of its batch in plan order. A case drafted by
    a task of its own (a model's) is settled in that task as its answer arrives."""
    cases: dict[str, CaseWork] = {}
    for one in task.get("batch") or [task]:
        behavior_id, work = await _draft_one(one, runtime.context)
        if "batch" not in task:
            work = await settle(one, work, runtime.context)
        cases[behavior_id] = work
    return {"cases": cases}


async def settle(task: DraftTask, work: CaseWork, ctx: GenerateContext) -> CaseWork:
    """One draft through the steps the flow's later nodes take for all drafts at once:
    validate ⇄ repair, review, verify, and the written text and report rows made. Each
    step depends on this case alone, so the result is what those nodes make of it; done
    here, the work fills the time other answers are awaited instead of following the
    last one. The later nodes pass over a settled case (`reviewed`, `verification`);
    dedupe, write and report, which look at every case, stay after the last answer."""
    while work["status"] in ("drafted", "repaired"):
        work = _validated(work, ctx)
        if work["status"] == "invalid":
            work = await _repaired({**task, "work": work}, ctx)
    if work["status"] != "valid" or work["data"] is None:
        return work
    work = _reviewed(work, ctx) or work
    work["reviewed"] = True
    if work["status"] == "valid" and ctx.request.verify and not work.get("verification"):
        work = await verify_case(work, ctx)
    if work["status"] == "valid":
        behavior = Behavior.model_validate(work["behavior"])
        prerender(ctx, behavior, work["data"] or {})
        prejustify(ctx, work["data"] or {})
    return work


async def _draft_one(task: DraftTask, ctx: GenerateContext) -> tuple[str, CaseWork]:
    """Draft one case. An engine failure fails this case only; an endpoint that is
    unreachable or refuses the key halts the drafts not started yet (they would all fail
    the same way), and `--resume` drafts every such case again."""
    behavior = Behavior.model_validate(task["behavior"])
    unwritten = behavior.facts.get(NOT_WRITTEN)
    if unwritten:  # planned only to be reported: no case can be sound
        return behavior.id, _not_written(task, str(unwritten))
    twin = twin_work(ctx, behavior, task["behavior"])
    if twin is not None:  # asserts what an earlier planned case asserts: no model call
        return behavior.id, twin
    kind: str | None = None
    if ctx.halted is not None:
        result = DraftResult(error=f"not drafted: {ctx.halted['error']}")
        kind = "halted"
    else:
        try:
            result = await ctx.engine.draft(_context(ctx, behavior, task))
        except Exception as exc:  # engines retry internally; what is left fails this case
            result = DraftResult(error=redact(f"{type(exc).__name__}: {exc}"), usage=_spent(exc))
            kind = failure_kind(exc)
            if kind in ("unreachable", "auth") and ctx.halted is None:
                ctx.halted = {"error": result.error or kind, "kind": kind}
    work = CaseWork(
        behavior=task["behavior"],
        data=result.data,
        status="drafted" if result.data is not None else "failed",
        findings=[],
        repairs=[],
        attempts=1,
        deterministic_done=False,
        model_rounds=0,
        error=result.error,
        usage=result.usage.model_dump(),
        error_kind=kind,
    )
    if result.data is not None and result.needs_review:
        work["needs_review"] = result.needs_review
    if result.edits:
        work["edits"] = result.edits
    if result.data is not None and ctx.engine.name != "offline":
        draft_ctx = _context(ctx, behavior, task)
        work["model_parts"] = model_parts(ctx, draft_ctx, result.data, result.planned)
    return behavior.id, work


def _not_written(task: DraftTask, reason: str) -> CaseWork:
    """The record of a behaviour the plan says no sound case exists for: dropped, with the
    reason, before any engine drafts it."""
    return CaseWork(
        behavior=task["behavior"],
        data=None,
        status="dropped",
        findings=[{"code": "not-written", "severity": "warning", "path": "", "message": reason}],
        repairs=[],
        attempts=0,
        deterministic_done=False,
        model_rounds=0,
        error=f"not written: {reason}",
        usage=Usage().model_dump(),
        error_kind=None,
    )


def _repairable(work: CaseWork, ctx: GenerateContext) -> bool:
    if not work["deterministic_done"]:
        return True
    return ctx.engine.can_repair and work["model_rounds"] < ctx.request.repair_rounds


async def validate(state: GenerateState, runtime: Ctx) -> dict[str, Any]:
    """Schema + reference lint of every fresh draft; decides valid / invalid / failed."""
    ctx = runtime.context
    return {
        "cases": {
            behavior_id: _validated(work, ctx)
            for behavior_id, work in state.get("cases", {}).items()
            if work["status"] in ("drafted", "repaired")
        }
    }


def _validated(work: CaseWork, ctx: GenerateContext) -> CaseWork:
    errors = [
        f for f in check_data(work["data"], ctx.dialect, ctx.project) if f.severity == "error"
    ]
    updated = CaseWork(**work)
    updated["findings"] = [f.to_json() | {"context": f.context} for f in errors]
    if not errors:
        updated["status"] = "valid"
    elif _repairable(work, ctx):
        updated["status"] = "invalid"
    else:
        updated["status"] = "failed"
        updated["error"] = updated["error"] or _left(errors, work["model_rounds"])
    return updated


def _left(errors: list[Finding], rounds: int) -> str:
    """Why a draft failed validation for good: with model rounds spent, the last finding
    they left, so a draft that never converged is reported with what stopped it."""
    if not rounds:
        return f"{len(errors)} finding(s) left after repair"
    first = errors[0]
    return (
        f"{len(errors)} finding(s) left after {rounds} model repair round(s); "
        f"the last: {first.code} at {first.path or '/'}: {first.message}"
    )


def route_repairs(state: GenerateState) -> list[Send] | Literal["review"]:
    invalid = [w for w in state.get("cases", {}).values() if w["status"] == "invalid"]
    behaviors = state.get("behaviors", [])
    return [
        Send(
            "repair",
            DraftTask(behavior=w["behavior"], work=w, siblings=siblings(w["behavior"], behaviors)),
        )
        for w in invalid
    ] or "review"


async def repair(task: DraftTask, runtime: Ctx) -> dict[str, Any]:
    """Deterministic repair first; then, while findings are left, a model round with them
    (up to the request's `repair_rounds`)."""
    work = await _repaired(task, runtime.context)
    return {"cases": {work["behavior"]["id"]: work}}


async def _repaired(task: DraftTask, ctx: GenerateContext) -> CaseWork:
    work = CaseWork(**task["work"])  # type: ignore[typeddict-item]
    behavior = Behavior.model_validate(work["behavior"])
    data = work["data"]
    repairs = list(work["repairs"])
    usage = Usage.model_validate(work["usage"])
    if work["deterministic_done"]:
        findings = [Finding.model_validate(f) for f in work["findings"]]
        try:
            result = await ctx.engine.repair(_context(ctx, behavior, task), data, findings)
        except Exception as exc:  # a failed repair round spends the round, nothing more
            result = DraftResult(error=redact(f"{type(exc).__name__}: {exc}"), usage=_spent(exc))
        work["model_rounds"] += 1
        work["attempts"] += 1
        usage = usage + result.usage
        if result.data is not None:
            codes = sorted({f.code for f in findings})
            repairs.append(
                {
                    "code": "model",
                    "path": "",
                    "before": None,
                    "after": None,
                    "reason": f"{ctx.engine.name} revised the draft for: {', '.join(codes)}"
                    f" (round {work['model_rounds']})",
                    "by": "model",
                }
            )
            data = result.data
        else:
            work["error"] = result.error
    outcome = repair_data(data, ctx.dialect, ctx.project)
    repairs += [a.to_json() | {"by": "rules"} for a in outcome.actions]
    work.update(
        data=outcome.data,
        repairs=repairs,
        deterministic_done=True,
        status="repaired",
        usage=usage.model_dump(),
    )
    return work


# --- review, dedupe, write, report ------------------------------------------------------


async def review(state: GenerateState, runtime: Ctx) -> dict[str, Any]:
    """`casegen review`'s rules on every valid draft: fix what needs no judgement, drop
    what is still wrong (the finding is the reason), so a fresh suite passes its review.
    First, assertions the definitions do not justify go (`_justified`)."""
    ctx = runtime.context
    updates: dict[str, CaseWork] = {}
    for behavior_id, work in state.get("cases", {}).items():
        if work["status"] != "valid" or work["data"] is None or work.get("reviewed"):
            continue
        updated = _reviewed(work, ctx)
        if updated is not None:
            updates[behavior_id] = updated
    return {"cases": updates}


def _reviewed(work: CaseWork, ctx: GenerateContext) -> CaseWork | None:
    """One valid draft under review's rules (see `review`); None: nothing to change."""
    changed: CaseWork | None = None
    justified = _justified().keep_justified(work["data"], ctx.dialect, ctx.project)
    if justified.fixes or justified.needs_review:
        work = changed = CaseWork(**work)
        work["data"] = justified.data
        work["repairs"] = [*work["repairs"], *justified.fixes]
        if justified.needs_review:
            reasons = [work.get("needs_review"), _with_causes(justified.needs_review, ctx, work)]
            work["needs_review"] = "; ".join(r for r in reasons if r)
    shut = _behind_shut_gate(work, ctx)
    if shut and not work.get("needs_review"):
        work = changed = CaseWork(**work)
        work["needs_review"] = _with_causes(shut, ctx, work)
    outcome = prewrite(
        work["data"],
        ctx.dialect.name,
        ctx.project,
        title=work["behavior"].get("title"),
        copy_clean=False,
        model_criteria="criteria" in (work.get("model_parts") or ()),
    )
    if not outcome.fixes and not outcome.errors:
        return changed
    updated = CaseWork(**work)
    updated["repairs"] = [*work["repairs"], *outcome.fixes]
    updated["data"] = outcome.data
    if "model_parts" in work:
        updated["model_parts"] = without_fixed(work["model_parts"], outcome.fixes)
    left = outcome.errors
    if not left:
        left = [
            f for f in check_data(outcome.data, ctx.dialect, ctx.project) if f.severity == "error"
        ]
    if left and _held_for_review(work, left, ctx.request.verify):
        # the suite must have this case (a skill's goal, a gate's refusal), yet nothing
        # in the definitions gives it a check of the goal: written for a person to
        # finish, with the reason, never dropped in silence (and not verified as if sound)
        updated["verification"] = _needs_review(outcome.data, left, ctx, work)
    elif left:
        first = left[0]
        updated["status"] = "dropped"
        updated["findings"] = [f.to_json() | {"context": f.context} for f in left]
        updated["error"] = f"{first.code} at {first.path or '/'}: {first.message}"
    return updated


#: Review findings a must-cover case is written with (marked `needs-review`) instead of
#: dropped: the case is sound as far as it goes but checks less than its purpose.
_HOLD_FOR_REVIEW = frozenset({"no-decisive-assertion"})


def _held_for_review(work: CaseWork, left: list[Finding], verify: bool) -> bool:
    behavior = Behavior.model_validate(work["behavior"])
    return verify and must_cover(behavior) and all(f.code in _HOLD_FOR_REVIEW for f in left)


def _needs_review(
    data: dict[str, Any], left: list[Finding], ctx: GenerateContext, work: CaseWork
) -> dict[str, Any]:
    reason = _with_causes("; ".join(f"{f.code}: {f.message}" for f in left), ctx, work)
    return Verdict("needs-review", "none", data, reason=reason, method="none").to_json()


def _behind_shut_gate(work: CaseWork, ctx: GenerateContext) -> str | None:
    """The needs-review reason of a must-cover case that asserts none of its skill's
    tools while a tool of the skill sits behind a gate nothing can open (`shut_gates`):
    its goal is out of reach of every run, so the case checks less than its purpose."""
    behavior = Behavior.model_validate(work["behavior"])
    if not (ctx.request.verify and must_cover(behavior)) or ctx.project.mantle is None:
        return None
    shut = shut_gates(ctx.project, behavior.source)
    if not shut:
        return None
    text = json.dumps(work["data"])
    if any(json.dumps(tool) in text for tool in ctx.project.mantle.tools_for(behavior.source)):
        return None
    tools = ", ".join(sorted(shut))
    return f"goal-behind-shut-gate: {tools} can never run, so the case asserts none of its tools"


def _with_causes(reason: str, ctx: GenerateContext, work: CaseWork) -> str:
    """The needs-review reason, and what in the project keeps the goal out of reach (a
    value the prose keeps with `set_fields` in an entry no memory.yml declares), with file,
    line and entry: the finding is the project's, for its author."""
    defs = ctx.project.mantle
    skill = defs.skills.get(str(work["behavior"].get("source"))) if defs is not None else None
    causes = undeclared_set_fields(ctx.project.root, defs, skill) if skill is not None else []
    if skill is not None:
        causes += list(shut_gates(ctx.project, skill.id).values())
    return "; ".join([reason, *(f"in the project: {c}" for c in causes)])


# --- dedupe, write, report --------------------------------------------------------------


async def dedupe(state: GenerateState, runtime: Ctx) -> dict[str, Any]:
    """Drop valid drafts that duplicate another draft, earlier output or the committed suite.

    A file this run would write to (a re-run's own earlier output) is not a duplicate of the
    case it holds. Drafts on different planned paths are never duplicates of each other; a
    draft duplicates an existing file only with exactly the same facts (`same_case`). A
    draft that asserts exactly what an earlier draft of the run asserts is dropped too
    (`asserted`), found before drafting where the plan shows it (`twin_work`): the
    conversation differs, the test does not.
    """
    ctx = runtime.context
    cases = state.get("cases", {})
    targets = {
        str(case_target(ctx, Behavior.model_validate(w["behavior"]))[1]) for w in cases.values()
    }
    pool = Pool()  # the committed suite and earlier output, then each draft kept
    files = {p.resolve() for p in suite_files(ctx.project, ctx.dialect)}
    for source in ctx.request.targets:
        out = ctx.out_dir(source)
        if out.is_dir():
            files |= {p.resolve() for p in out.iterdir() if p.suffix in ctx.dialect.suffixes}
    for file in sorted(files):
        if str(file) in targets:
            continue
        for label, other in unit_fingerprints(file, ctx.dialect):
            pool.add(label, other)
    kept: list[str] = []
    duplicates: list[dict[str, Any]] = []
    seen: dict[frozenset[str], str] = {}  # a kept draft's assertions -> its id
    for behavior in state.get("behaviors", []):
        work = cases.get(behavior["id"])
        if work is not None and work["status"] == "duplicate":  # found before drafting
            twin = str(work["error"]).removeprefix("twin:")
            duplicates.append(_twin_entry(behavior["id"], twin))
            continue
        if work is None or work["status"] != "valid":
            continue
        mark = case_mark(ctx, work["data"])
        path = (behavior.get("facts") or {}).get("path")
        same = pool.same(mark, path)
        if same:
            best = max(same)
            duplicates.append(
                {"behavior": behavior["id"], "duplicate_of": best[1], "similarity": best[0]}
            )
            continue
        twin = seen.get(asserted(mark))
        if twin is not None:
            duplicates.append(_twin_entry(behavior["id"], twin))
            continue
        if asserted(mark):
            seen[asserted(mark)] = behavior["id"]
        kept.append(behavior["id"])
        pool.add(f"draft:{behavior['id']}", mark, path)
    return {"kept": kept, "duplicates": duplicates}


def _twin_entry(behavior: str, twin: str) -> dict[str, Any]:
    """The `duplicates` entry of a case that asserts exactly what `twin` asserts."""
    return {
        "behavior": behavior,
        "duplicate_of": f"draft:{twin}",
        "similarity": 1.0,
        "reason": f"asserts exactly what {twin} asserts",
    }


async def write(state: GenerateState, runtime: Ctx) -> dict[str, Any]:
    """Write kept cases canonically (never over a person's edits) and update the manifest."""
    ctx = runtime.context
    cases = state.get("cases", {})
    kept = [Behavior.model_validate(cases[b]["behavior"]) for b in state.get("kept", [])]
    written: list[dict[str, Any]] = []
    if kept:
        # A manifest that is broken or someone else's stops the run before any case is
        # written, so files and manifest never disagree.
        check_manifest(ctx, case_path(ctx, kept[0]))
    try:
        _write_all(ctx, cases, kept, written)
    finally:
        # Also when a write fails (disk full): the files already written get their entries.
        update_manifest(ctx, _manifest_records(written))
    return {"written": written}


def _write_all(
    ctx: Any, cases: dict[str, Any], kept: list[Behavior], written: list[dict[str, Any]]
) -> None:
    if ctx.dialect.cases_per_file:
        by_source: dict[str, list[Behavior]] = {}
        for behavior in kept:
            by_source.setdefault(behavior.source, []).append(behavior)
        for source, behaviors in by_source.items():
            own = [cases[b.id]["data"] for b in behaviors]
            data = ctx.dialect.combine_cases(source, own, ctx.project)
            path = case_path(ctx, behaviors[0])
            reasons = [r for b in behaviors for r in _needs_review_of(ctx, cases[b.id])]
            status = write_one(ctx, path, data, reasons)
            if status != "conflict":
                write_starters(path, behaviors, force=ctx.request.force)
            for behavior in behaviors:
                written.append(_written(behavior, path, status))
    else:
        for behavior in kept:
            path = case_path(ctx, behavior)
            data = with_provenance(ctx, behavior, cases[behavior.id]["data"], ctx.started_at)
            reasons = _needs_review_of(ctx, cases[behavior.id])
            written.append(_written(behavior, path, write_one(ctx, path, data, reasons)))


def _needs_review_of(ctx: Any, work: dict[str, Any]) -> list[str]:
    """Why the case is written unverified, as the report says it (none when verified)."""
    reason = row_fields(work, ctx.request.verify)["needs_review"]
    return [reason] if reason else []


def _written(behavior: Behavior, path: Path, status: str) -> dict[str, Any]:
    return {
        "behavior": behavior.id,
        "source": behavior.source,
        "type": behavior.type,
        "path": str(path),
        "status": status,
    }


def _manifest_records(written: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """One record per file (a base44 eval.json holds several behaviours)."""
    by_path: dict[str, dict[str, Any]] = {}
    for record in written:
        if record["path"] in by_path:
            by_path[record["path"]]["behavior"] += "," + record["behavior"]
        else:
            by_path[record["path"]] = dict(record)
    return list(by_path.values())


async def report(state: GenerateState, runtime: Ctx) -> dict[str, Any]:
    return {"report": build_report(state, runtime.context)}
