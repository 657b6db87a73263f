"""Planned cases that assert exactly what an earlier planned case asserts, found before
their model call.

With a model drafting on the plan (`Dialect.planned_drafting`), a case's assertions are
the plan's: the model writes the words. A behaviour whose planned case (the offline draft
the model is shown) asserts what an earlier behaviour's planned case asserts would be
drafted, paid for, and then dropped by `dedupe` as a duplicate of it. A draft looks back
first, by the same fingerprint and rule `dedupe` uses (`asserted`), and such a behaviour
is recorded as a `duplicate` case that is never drafted; `dedupe` reports it as it reports
any twin. Behaviours with a plan edit that may change what they assert (a fact, an added
or removed assertion) are left to their drafts. Each planned case is made once: the
behaviour's own draft takes it (`GenerateContext.planned_cases`), and each draft plans only
the behaviours before it, so the first request leaves as early as before.
"""

from __future__ import annotations

from types import ModuleType
from typing import Any

from evalcore.dedupe import Fingerprint, fingerprint
from evalcore.dialects import Dialect, get_dialect, load_entry

from ..drafting import DraftContext, Usage
from ..planning import NOT_WRITTEN, Behavior
from ._siblings import siblings
from .context import GenerateContext
from .state import CaseWork


def asserted(mark: Fingerprint) -> frozenset[str]:
    """What a case asserts (not its type, setup or words); empty for a case that asserts
    nothing. Two drafts that assert the same are one test, whatever their conversations or
    the caller they seed: a second one checks nothing the first does not."""
    return frozenset(f for f in mark.facts if f.startswith("assert:"))


def case_mark(ctx: GenerateContext, data: dict[str, Any]) -> Fingerprint:
    """The fingerprint `dedupe` compares: the case's first unit's."""
    return dialect_mark(ctx.dialect, data)


def dialect_mark(dialect: Dialect, data: dict[str, Any]) -> Fingerprint:
    """`case_mark` for a case of `dialect`, before a run's context exists (`_early`)."""
    units = [unit for _, unit in dialect.case_units(data)]
    return fingerprint(units[0], dialect)


def twin_work(
    ctx: GenerateContext, behavior: Behavior, task_behavior: dict[str, Any]
) -> CaseWork | None:
    """The `duplicate` record of `behavior` when its planned case asserts exactly what an
    earlier behaviour's planned case asserts; None otherwise, for the offline engine (its
    draft is the planned case: `dedupe` finds the twin at no cost) and for a dialect drafted
    whole."""
    planned = _planning(ctx)
    order = [raw["id"] for raw in ctx.planned_order]
    if planned is None or behavior.id not in order or not comparable(behavior):
        return None
    marks = _marks(ctx, planned, ctx.planned_order[order.index(behavior.id)])
    if not marks:
        return None
    for raw in ctx.planned_order[: order.index(behavior.id)]:
        if ctx.planned_comparable[raw["id"]] and _marks(ctx, planned, raw) == marks:
            found = ctx.planned_cases.pop(behavior.id, None)
            return _duplicate(task_behavior, found[0] if found else None, raw["id"])
    return None


def keep_plan(ctx: GenerateContext, behaviors: list[Behavior], raws: list[dict[str, Any]]) -> None:
    """Keep the run's planned behaviours (`raws`: `behaviors` dumped, in plan order) for the
    look-backs, with whether each is `comparable`, weighed here once per behaviour: every
    behaviour looks back at each one before it, and weighing each again made the look-backs
    grow with the square of the plan. Both are set together from the same plan, so an
    answer is never an older plan's; nothing changes a planned behaviour after planning
    (what it asserts, `planned_marks`, is kept by id as well)."""
    ctx.planned_order = raws
    ctx.planned_comparable = {b.id: comparable(b) for b in behaviors}


def _planning(ctx: GenerateContext) -> ModuleType | None:
    entry = get_dialect(ctx.request.dialect).planned_drafting
    if ctx.engine.name == "offline" or not entry:
        return None
    return load_entry(entry)


#: Plan edits that may change what a case asserts: its facts feed asserted values.
_ASSERTING_EDITS = frozenset({"set_fact", "add_assertion", "remove_assertion"})


def comparable(behavior: Behavior) -> bool:
    """A behaviour whose draft's assertions are its planned case's: no plan edit that may
    change them (an opener, an intent or a criterion changes words only), and planned to be
    drafted at all."""
    asserting = any(e.get("op") in _ASSERTING_EDITS for e in behavior.edits)
    return not asserting and not behavior.facts.get(NOT_WRITTEN)


def _marks(ctx: GenerateContext, planned: ModuleType, raw: dict[str, Any]) -> frozenset[str]:
    """What the planned case of behaviour `raw` asserts, planned once per run (the case
    kept for the behaviour's own draft when that has not started yet)."""
    known = ctx.planned_marks.get(raw["id"])
    if known is not None:
        return known
    draft = DraftContext(
        project=ctx.project,
        dialect=ctx.request.dialect,
        behavior=Behavior.model_validate(raw),
        direction=ctx.request.direction,
        siblings=tuple(siblings(raw, ctx.planned_order)),
    )
    document, script = planned.planned_case(draft)
    marks = ctx.planned_marks[raw["id"]] = asserted(case_mark(ctx, document))
    ctx.planned_cases[raw["id"]] = (document, script)
    return marks


def _duplicate(behavior: dict[str, Any], data: dict[str, Any] | None, twin: str) -> CaseWork:
    """The record of a behaviour left undrafted: its planned case (coverage reads what it
    asserts) and the twin it duplicates (`error`: `twin:<id>`)."""
    return CaseWork(
        behavior=behavior,
        data=data,
        status="duplicate",
        findings=[],
        repairs=[],
        attempts=0,
        deterministic_done=False,
        model_rounds=0,
        error=f"twin:{twin}",
        usage=Usage().model_dump(),
        error_kind=None,
    )


__all__ = ["asserted", "case_mark", "comparable", "dialect_mark", "keep_plan", "twin_work"]
