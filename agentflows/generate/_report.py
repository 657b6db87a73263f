"""The run report: the JSON `casegen generate --json` prints and the PR description reads."""

from __future__ import annotations

from collections import Counter
from typing import Any

from evalcore.definitions import rasa_refusal

from ..doctor import HINT
from ..drafting import Usage
from ..planning import asserted_elements
from ._engines import label
from ._verify_report import drop_stage, row_fields, verification_summary
from ._write import content_key
from .context import GenerateContext
from .state import RESUMABLE_KINDS, CaseWork, GenerateState


def _justifications(ctx: GenerateContext, data: dict[str, Any]) -> dict[str, Any]:
    """`justifications`: each check of the written case with the definition element behind
    it (`{path, check, top, justification: {kind, file, line, element} | null}`)."""
    if not ctx.dialect.justifies:
        return {}
    key = content_key(data) if ctx.justified else None
    kept = ctx.justified.get(key) if key is not None else None
    if kept is None:
        kept = [j.to_json() for j in ctx.dialect.justify(data, ctx.project)]
    return {"justifications": kept}


def prejustify(ctx: GenerateContext, data: dict[str, Any]) -> None:
    """Work out a settled case's `justifications` now, while other answers are awaited; the
    report after the last answer finds them by the case's data."""
    key = content_key(data) if ctx.dialect.justifies else None
    if key is not None:
        ctx.justified[key] = [j.to_json() for j in ctx.dialect.justify(data, ctx.project)]


def _outside(ctx: GenerateContext, data: dict[str, Any]) -> dict[str, Any]:
    """`outside`: the tools the case expects to run whose code acts on a real service
    (`{tool, service, calls, changes, credentials}`); absent where there is none."""
    found = ctx.dialect.outside_effects(data, ctx.project)
    return {"outside": found} if found else {}


def _justification_summary(
    ctx: GenerateContext, rows: list[dict[str, Any]], cases: dict[str, Any]
) -> dict[str, Any]:
    """`justification`: written assertions by kind, and the assertions dropped as
    unjustified or conditional (per kind) before writing."""
    if not ctx.dialect.justifies:
        return {}
    kinds: Counter[str] = Counter()
    for row in rows:
        for item in row.get("justifications", []):
            if item["top"] and item["check"] != "criterion":
                found = item["justification"]
                kinds[found["kind"] if found else "unjustified"] += 1
    dropped: Counter[str] = Counter()
    for work in cases.values():
        for fix in work["repairs"]:
            if str(fix.get("code", "")).startswith("justify:"):
                dropped[fix["code"].removeprefix("justify:")] += 1
    return {
        "justification": {
            "assertions": dict(sorted(kinds.items())),
            "dropped": dict(sorted(dropped.items())),
        }
    }


def _edits(work: CaseWork) -> dict[str, Any]:
    """The case's plan edits, each `accepted` or `refused` with the reason (none: no key,
    so a run without edits reports as it always did)."""
    keys = ("op", "target", "at", "value", "justification", "status", "reason")
    edits = [{k: e[k] for k in keys if e.get(k) not in (None, "")} for e in work.get("edits", [])]
    return {"edits": edits} if edits else {}


def build_report(state: GenerateState, ctx: GenerateContext) -> dict[str, Any]:
    cases = state.get("cases", {})
    written = {w["behavior"]: w for w in state.get("written", [])}
    usage = Usage.model_validate(state.get("plan_usage") or {})
    for work in cases.values():
        usage = usage + Usage.model_validate(work["usage"])
    rows: list[dict[str, Any]] = []
    failed: list[dict[str, Any]] = []
    dropped: list[dict[str, Any]] = []
    for behavior in state.get("behaviors", []):
        work = cases.get(behavior["id"])
        if work is None:
            continue
        if work["status"] == "dropped":
            dropped.append(
                {
                    "behavior": behavior["id"],
                    "reason": work["error"],
                    **drop_stage(work),
                    **_edits(work),
                    "errors": [
                        {k: v for k, v in f.items() if k != "context"} for f in work["findings"]
                    ],
                }
            )
            continue
        if work["status"] == "failed":
            failed.append(
                {
                    "behavior": behavior["id"],
                    "error": work["error"],
                    "error_kind": work.get("error_kind"),
                    "usage": work["usage"],
                    "errors": [
                        {k: v for k, v in f.items() if k != "context"} for f in work["findings"]
                    ],
                }
            )
            continue
        record = written.get(behavior["id"])
        if record is None:
            continue
        data = work["data"] or {}
        rows.append(
            {
                "path": record["path"],
                "status": record["status"],
                "dialect": ctx.dialect.name,
                "source": behavior["source"],
                "type": behavior["type"],
                "behavior": behavior["id"],
                "title": behavior["title"],
                "covers": behavior["covers"],
                "valid": True,
                "repairs": [{k: v for k, v in r.items()} for r in work["repairs"]],
                "attempts": work["attempts"],
                "assertions": ctx.dialect.count_assertions(data),
                "criteria": ctx.dialect.count_criteria(data),
                **_justifications(ctx, data),
                **_outside(ctx, data),
                "usage": work["usage"],
                "engine": label(ctx, work.get("model_parts")),
                **row_fields(work, ctx.request.verify),
                **_edits(work),
            }
        )
    coverage = _coverage(state, ctx)
    conflicts = [r for r in rows if r["status"] == "conflict"]
    return {
        "run_id": ctx.run_id,
        "engine": ctx.engine.name,
        "model": ctx.engine.model,
        "project": str(ctx.project.root),
        "direction": ctx.request.direction,
        "direction_unread": _direction_unread(state, ctx),
        "planned": len(state.get("behaviors", [])),
        "spread": state.get("spread", []),
        "cases": rows,
        "failed": failed,
        "dropped": dropped,
        "conflicts": list(dict.fromkeys(r["path"] for r in conflicts)),
        "duplicates_dropped": len(state.get("duplicates", [])),
        "duplicates": state.get("duplicates", []),
        "coverage": coverage,
        "verification": verification_summary(rows, dropped, ctx.request.verify),
        **_justification_summary(ctx, rows, cases),
        "llm": usage.model_dump(),
        "halted": _halted(ctx, failed),
        "engines": dict(Counter(r["engine"] for r in rows)),
        "rasa_refusal": rasa_refusal(ctx.project.warnings),
    }


def _direction_unread(state: dict[str, Any], ctx: GenerateContext) -> list[str]:
    """The direction's clauses the offline drafter could not use (`Direction.unread`), as
    the planner recorded them on the behaviours the direction shaped: none with a model,
    which reads the whole text."""
    if not ctx.request.direction or ctx.engine.name != "offline":
        return []
    unread: dict[str, None] = {}
    for behavior in state.get("behaviors", []):
        facts = (behavior.get("facts") or {}).get("direction") or {}
        unread.update(dict.fromkeys(facts.get("unread") or []))
    return list(unread)


def _halted(ctx: GenerateContext, failed: list[dict[str, Any]]) -> dict[str, Any] | None:
    """The one error that stopped drafting (endpoint unreachable or refusing the key), with
    the hint and how many cases `--resume` would draft again; None when nothing stopped."""
    if ctx.halted is None:
        return None
    return {
        **ctx.halted,
        "hint": HINT,
        "not_drafted": sum(1 for f in failed if f.get("error_kind") in RESUMABLE_KINDS),
        "resume": f"casegen generate --resume {ctx.run_id}",
    }


def _coverage(state: GenerateState, ctx: GenerateContext) -> dict[str, Any]:
    """Per source: elements an assertion of a written (or duplicate) case checks count as
    covered; those the cases only touch (planned on, reached by the script or a criterion,
    but checked by no assertion) are listed as `touched`, never counted. Elements no
    scenario can bring about (`Plan.untestable`) are listed with why, outside the count."""
    cases = state.get("cases", {})
    kept = {w["behavior"] for w in state.get("written", [])} | {
        d["behavior"] for d in state.get("duplicates", [])
    }
    coverage: dict[str, Any] = {}
    for plan in state.get("plans", []):
        untestable = plan.get("untestable") or {}
        elements = [e for e in plan["elements"] if e not in untestable]
        asserted: set[str] = set()
        planned_on: set[str] = set()
        for behavior in state.get("behaviors", []):
            work = cases.get(behavior["id"])
            if behavior["source"] != plan["source"] or behavior["id"] not in kept or not work:
                continue
            planned_on |= set(behavior["covers"])
            asserted |= asserted_elements(
                ctx.project,
                ctx.dialect.name,
                plan["source"],
                work["data"] or {},
                behavior["covers"],
            )
        covered = [e for e in elements if e in asserted]
        coverage[plan["source"]] = {
            "elements": len(elements),
            "covered": len(covered),
            "uncovered": [e for e in elements if e not in asserted],
            "touched": [e for e in elements if e in planned_on and e not in asserted],
        }
        if untestable:
            coverage[plan["source"]]["untestable"] = [
                {"element": e, "reason": why} for e, why in untestable.items()
            ]
    return coverage
