"""A Mantle draft played against the allowed variants of the reference agent on its path.

    outcome = await check_variants(data, env, record)

A variant takes one freedom the definitions leave to the model the other way (an optional
lookup skipped, two `set_fields` writes in the other order, a date in another format, …;
`evalcore.agents.reference._variants`). Every correct agent may behave like any of them, so
a case must pass them all. A case that fails one asserts more than the definitions say; it
is loosened, never turned into another case:

- `memory_was_set`: the items the variant does not write as stated go;
- `tool_executed`: the arguments the variant passes otherwise go (the call stays asserted),
  else the assertion goes;
- `sequencing`: the steps that keep the order true in every run are kept (at least two);
- `bot_uttered`: becomes a criterion (the reply's words, in any wording);
- any other: the assertion goes.

The loosened case must pass review, the reference agent and every variant played. A fix that
would take away what the case is for (a happy path's completion, a failure case's failure)
is not made: the case is kept as drafted and marked `needs-review` with the reason. Only
the variants whose site the reference run passed are played (one that never reached its
site plays the run move for move), at most `MAX_VARIANTS` per case.
"""

from __future__ import annotations

import asyncio
import copy
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from evalcore.agents.reference import Variant, variants
from evalcore.assertions import evaluate_mantle, parse_events
from evalcore.runcase import RunCase

from ._verify_play import Played, play, reference, run_case
from ._verify_types import VerifyEnv

#: Variants played per case, at most (each costs one reference play, from the turn before
#: its freedom is first reached: `_verify_play.play`).
MAX_VARIANTS = 8
#: Kinds in the order they are taken when a case reaches more than `MAX_VARIANTS`: the ones
#: real reviews found over-specified most often first.
_PRIORITY = (
    "skip_optional",
    "reorder_writes",
    "reformat_argument",
    "set_late",
    "reorder_asks",
    "paraphrase",
)


@dataclass
class VariantOutcome:
    data: dict[str, Any]
    record: Played
    """The reference agent's passing run of `data`."""
    played: list[str] = field(default_factory=list)
    passed: list[str] = field(default_factory=list)
    fixes: list[dict[str, Any]] = field(default_factory=list)
    review: str | None = None
    """Why the case is kept as drafted for a person to look at (a fix would change what it
    is for, or the loosened case still fails), else None."""
    changed: bool = False


#: A variant's site -> its positions in the project's list of variants.
Sites = dict[tuple[str, str], list[int]]

_KEPT: dict[int, tuple[Any, list[Variant], Sites]] = {}


def _kept(project: Any) -> tuple[Any, list[Variant], Sites]:
    kept = _KEPT.get(id(project))
    if kept is None or kept[0] is not project:
        found = variants(project)
        kept = _KEPT[id(project)] = (project, found, site_index(found))
    return kept


def project_variants(project: Any) -> list[Variant]:
    """The project's allowed variants, derived once per loaded project."""
    return _kept(project)[1]


def site_index(found: list[Variant]) -> Sites:
    """Where each site's variants stand in `found`: a case looks up the sites its run
    passed instead of testing every variant of the project (which grew with its skills)."""
    index: Sites = {}
    for n, variant in enumerate(found):
        index.setdefault(variant.site, []).append(n)
    return index


def on_path(found: list[Variant], record: Played, sites: Sites | None = None) -> list[Variant]:
    """The variants whose site the reference run passed, at most `MAX_VARIANTS`, spread
    over kinds in `_PRIORITY` order; `sites`: `site_index(found)`, when kept."""
    passed = record.reached or set()
    if sites is None:
        reached = [v for v in found if v.site in passed]
    else:
        at = sorted(n for site in passed for n in sites.get(site, ()))
        reached = [found[n] for n in at]
    by_kind: dict[str, list[Variant]] = {}
    for variant in reached:
        by_kind.setdefault(variant.kind, []).append(variant)
    queues = [by_kind[k] for k in _PRIORITY if k in by_kind]
    chosen: list[Variant] = []
    while any(queues) and len(chosen) < MAX_VARIANTS:
        for queue in queues:
            if queue and len(chosen) < MAX_VARIANTS:
                chosen.append(queue.pop(0))
    return chosen


async def _plays(
    data: dict[str, Any],
    env: VerifyEnv,
    chosen: list[Variant],
    passing: Played,
    case: RunCase | None = None,
) -> list[tuple[Variant, Played]]:
    """Each chosen variant's run of `data`, which `passing` (the reference agent's run of
    it) passes: a variant's run starts from that run where it cannot yet differ (`play`)."""
    gate = asyncio.Semaphore(env.concurrency)
    case = case or run_case(data, env.path, "mantle")[0]

    async def one(variant: Variant) -> tuple[Variant, Played]:
        target = reference(env.project, variant=variant)
        async with gate:
            return variant, await play(case, target, env.project, passing)

    return list(await asyncio.gather(*(one(v) for v in chosen)))


@dataclass(frozen=True)
class CaseChecks:
    """The Mantle verifier's own steps a loosened case goes through again: its reference
    run, what the case is for (`point`), and the review before writing. Passed in by the
    verifier, so that this module does not import it back."""

    play: Callable[[dict[str, Any], VerifyEnv], Awaitable[Played]]
    point: Callable[[dict[str, Any]], set[str]]
    reviewed: Callable[
        [dict[str, Any], VerifyEnv, dict[str, Any] | None],
        tuple[dict[str, Any] | None, str | None],
    ]


async def check_variants(
    data: dict[str, Any],
    env: VerifyEnv,
    record: Played,
    checks: CaseChecks,
    case: RunCase | None = None,
) -> VariantOutcome:
    """Play `data` (which `record`, the reference run, passes) against its variants and
    loosen what they prove over-specified."""
    _play, _point, _reviewed = checks.play, checks.point, checks.reviewed
    _, found, sites = _kept(env.project)
    chosen = on_path(found, record, sites)
    outcome = VariantOutcome(data, record, played=[v.id for v in chosen])
    if not chosen:
        return outcome
    plays = await _plays(data, env, chosen, record, case)
    outcome.passed = [v.id for v, p in plays if p.status == "passed"]
    failing = [(v, p) for v, p in plays if p.status == "failed"]
    if not failing:
        return outcome
    first, run = failing[0]
    said = "; ".join(f"{a['type']}: {a['detail']}" for a in run.failing[:2])
    over = f"over-specified: a correct agent that {first.behaviour} ({first.id}) fails it ({said})"
    fixed, fixes = loosen(data, failing, env)
    lost = _point(data) - _point(fixed)
    if lost:
        outcome.review = f"{over}; not loosened: the case must still assert " + " and ".join(
            sorted(lost)
        )
        return outcome
    candidate, why = _reviewed(fixed, env, data)
    if candidate is None:
        outcome.review = f"{over}; not loosened: {why}"
        return outcome
    replay = await _play(candidate, env)
    again = await _plays(candidate, env, chosen, replay) if replay.status == "passed" else []
    if replay.status != "passed" or any(p.status == "failed" for _, p in again):
        outcome.review = f"{over}; the loosened case still fails"
        return outcome
    outcome.data, outcome.record, outcome.fixes, outcome.changed = candidate, replay, fixes, True
    outcome.passed = [v.id for v, p in again if p.status == "passed"]
    return outcome


def loosen(
    data: dict[str, Any], failing: list[tuple[Variant, Played]], env: VerifyEnv
) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """`data` with each assertion some variant fails loosened (see the module docstring)."""
    fixed = copy.deepcopy(data)
    goals = fixed["scenario"]["goals"]
    assertions: list[Any] = goals["assertions"]
    runs = [parse_events(list(p.events)) for _, p in failing]
    blame: dict[int, Variant] = {}
    for variant, run in failing:
        for result in run.failing:
            blame.setdefault(result["index"], variant)
    fixes: list[dict[str, Any]] = []
    for index in sorted(blame, reverse=True):
        if index >= len(assertions):
            continue
        item = assertions[index]
        kind = next(iter(item)) if isinstance(item, dict) and len(item) == 1 else "invalid"
        after = _loosened(kind, item.get(kind) if kind != "invalid" else None, runs)
        variant = blame[index]
        fix = {
            "code": f"variant:{kind}",
            "path": f"/scenario/goals/assertions/{index}",
            "before": item,
            "after": None if after is None else {kind: after},
            "reason": f"over-specified: a correct agent that {variant.behaviour} "
            f"({variant.id}) fails it",
            "by": "verify",
        }
        if after is None and kind == "bot_uttered":
            criterion = _criterion(item[kind], env)
            if criterion is not None:
                goals.setdefault("criteria", []).append(criterion)
                fix["criterion"] = criterion
        if after is None:
            del assertions[index]
        else:
            assertions[index] = {kind: after}
        fixes.append(fix)
    if not assertions:
        del goals["assertions"]
    return fixed, fixes


def _passes(kind: str, spec: Any, runs: list[Any]) -> bool:
    return all(evaluate_mantle([{kind: spec}], parsed)[0].passed for parsed in runs)


def _loosened(kind: str, spec: Any, runs: list[Any]) -> Any | None:
    """The spec every failing variant's run passes, or None (the assertion goes)."""
    if kind == "memory_was_set" and isinstance(spec, list):
        kept = [item for item in spec if _passes(kind, [item], runs)]
        return kept or None
    if (
        kind == "tool_executed"
        and isinstance(spec, dict)
        and isinstance(spec.get("arguments"), dict)
    ):
        loose = dict(spec)
        args = {
            k: v
            for k, v in spec["arguments"].items()
            if _passes(kind, {**spec, "arguments": {k: v}}, runs)
        }
        if args:
            loose["arguments"] = args
        else:
            loose.pop("arguments")
        return loose if _passes(kind, loose, runs) else None
    if kind == "sequencing" and isinstance(spec, list):
        kept: list[Any] = []
        for step in spec:
            if _passes(kind, [*kept, step], runs):
                kept.append(step)
        return kept if len(kept) >= 2 else None
    return None


def _criterion(spec: Any, env: VerifyEnv) -> str | None:
    """`bot_uttered` of a reply the model may word itself, as a criterion a judge reads."""
    name = spec.get("utter_name") if isinstance(spec, dict) else None
    defs = env.project.mantle
    response = defs.all_responses().get(str(name)) if defs is not None and name else None
    text = next((v.text for v in response.variants if v.text), None) if response else None
    if not text:
        return None
    return f'The agent says, in any words, what this reply says: "{" ".join(text.split())}"'


__all__ = [
    "MAX_VARIANTS",
    "VariantOutcome",
    "check_variants",
    "loosen",
    "on_path",
    "site_index",
]
