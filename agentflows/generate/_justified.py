"""Only justified assertions are written: the rest of a draft's assertions go.

Before review, each draft's checks are justified against the project (`Dialect.justify`):
an assertion the definitions do not back (no element found) or back only by conditional
prose is dropped (an entry of a memory check, or a step of a sequencing, alone where the
rest stands; a sequencing whose order the model chooses, whole). Criteria are never
touched. A draft is never turned into another case: an assertion whose drop would leave it
without its goal (its skill's success or a gate's refusal as `casegen score` reads them, its
`skill_completed`, or anything decisive) is kept, and the draft is marked `needs-review`
with the reason.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from evalcore import pointer as ptr
from evalcore.definitions import Project, memoized
from evalcore.dialects import Dialect
from evalcore.documents import Document
from evalcore.justify import Judged

from ..scoring import ScoredCase, asserts_success, refuses, skill_signals

_ASSERTIONS = "/scenario/goals/assertions"
#: Checks that alone say nothing about what the case is for.
_NOT_DECISIVE = frozenset({"skill_activated"})


@dataclass
class Justified:
    data: dict[str, Any]
    fixes: list[dict[str, Any]] = field(default_factory=list)
    """`{code, path, before, after, reason, by: "review"}` per assertion dropped or cut."""
    needs_review: str | None = None
    """Why the draft is kept as drafted although some of its assertions are unjustified."""


def keep_justified(data: dict[str, Any], dialect: Dialect, project: Project | None) -> Justified:
    """`data` with its unjustified and conditional assertions dropped (see the module).

    The `sequencing` assertions are cut first and the other checks judged against what is
    left of them: a step cut from an order (an entry "set before the tool runs" that only
    conditional prose sets) no longer keeps a tool's own write from justifying the entry."""
    if not dialect.justifies:
        return Justified(data)
    first = _pass(data, data, dialect, project, orders=True)
    second = _pass(first.data, data, dialect, project, orders=False)
    if not first.fixes and not first.needs_review:
        return second
    needed = [r for r in (first.needs_review, second.needs_review) if r]
    return Justified(
        second.data, first.fixes + second.fixes, needs_review="; ".join(needed) or None
    )


def _pass(
    data: dict[str, Any],
    original: dict[str, Any],
    dialect: Dialect,
    project: Project | None,
    *,
    orders: bool,
) -> Justified:
    """One round of drops on `data`, of its `sequencing` assertions (`orders`) or of the
    others, weighing what the case is for against the `original` draft. `data` itself
    when nothing goes."""
    judged = dialect.justify(data, project)
    tops = [
        j
        for j in judged
        if j.top and _index(j.path) is not None and (j.check == "sequencing") == orders
    ]
    if all(j.assertable for j in tops):
        return Justified(data)
    parts: dict[int, list[Judged]] = {}
    for item in judged:
        index = _index(item.path)
        if index is not None and not item.top:
            parts.setdefault(index, []).append(item)
    out = copy.deepcopy(data)
    assertions = out["scenario"]["goals"]["assertions"]
    fixes: list[dict[str, Any]] = []
    needed: list[str] = []
    # Last first, so a drop never shifts the index of one still to weigh.
    for top in sorted(tops, key=lambda j: -(_index(j.path) or 0)):
        if top.assertable:
            continue
        index = _index(top.path)
        assert index is not None
        before = assertions[index]
        kept = _kept_parts(before, top, parts.get(index, []))
        trial = copy.deepcopy(out)
        goal = trial["scenario"]["goals"]["assertions"]
        if kept is None:
            del goal[index]
        else:
            goal[index] = kept
        if lost_goal(original, trial, project):
            needed.append(f"{top.path}: {top.comment()}")
            continue  # what the case is for rests on it: kept, for a person to weigh
        out = trial
        assertions = goal
        fixes.append(
            {
                "code": f"justify:{top.kind or 'unjustified'}",
                "path": top.path,
                "before": before,
                "after": kept,
                "reason": top.comment(),
                "by": "review",
            }
        )
    if needed:
        reason = "its goal rests on assertions the definitions do not justify: "
        return Justified(out, fixes, needs_review=reason + "; ".join(reversed(needed)))
    return Justified(out, fixes)


def _index(path: str) -> int | None:
    """The assertion index of a check's path (None for criteria)."""
    if not path.startswith(_ASSERTIONS + "/"):
        return None
    token = ptr.split(path)[3]
    return int(token) if token.isdigit() else None


def _kept_parts(item: Any, top: Judged, parts: list[Judged]) -> dict[str, Any] | None:
    """The assertion with only its justified parts, or None when it goes whole."""
    if not isinstance(item, dict) or len(item) != 1 or not parts:
        return None
    ((check, body),) = item.items()
    good = [_part_index(p.path) for p in parts if p.assertable and p.path.count("/") == 6]
    if not isinstance(body, list) or not good:
        return None
    if check == "sequencing" and (len(good) < 2 or len(good) == len(body)):
        return None  # one step orders nothing; all steps sound: the order itself is not
    kept = [body[i] for i in sorted(i for i in good if i is not None and i < len(body))]
    return {check: kept} if kept else None


def _part_index(path: str) -> int | None:
    token = ptr.split(path)[-1]
    return int(token) if token.isdigit() else None


def lost_goal(before: dict[str, Any], after: dict[str, Any], project: Project | None) -> bool:
    """The drops (or a model's plan edit) took what the case is for: the success of its
    skill or the refusal at a gate it showed (as `casegen score` reads them), its
    `skill_completed`, or every decisive check."""

    def checks(data: dict[str, Any]) -> list[str]:
        items = data["scenario"]["goals"].get("assertions") or []
        return [next(iter(i)) for i in items if isinstance(i, dict) and len(i) == 1]

    old, new = checks(before), checks(after)
    if not new:
        return True
    if "skill_completed" in old and "skill_completed" not in new:
        return True
    if any(c not in _NOT_DECISIVE for c in old) and all(c in _NOT_DECISIVE for c in new):
        return True
    return bool(_goals_shown(before, project) - _goals_shown(after, project))


def _goals_shown(data: dict[str, Any], project: Project | None) -> frozenset[str]:
    """`success` when the case asserts its skill's success, `refusal:<tool>` per gate whose
    refusal it shows."""
    if project is None or project.mantle is None:
        return frozenset()
    scenario = data.get("scenario") if isinstance(data.get("scenario"), dict) else {}
    case = ScoredCase(Path("draft.yml"), Document(text="", format="yaml", data=data), scenario)
    skill = case.primary_skill(project)
    if skill is None or skill not in project.mantle.skills:
        return frozenset()
    signals = memoized(project, ("justified-signals", skill), lambda: skill_signals(project, skill))
    out = {"success"} if asserts_success(case, signals) else set()
    out |= {f"refusal:{g.tool}" for g in signals.gates if refuses(case, g, skill)}
    return frozenset(out)


__all__ = ["Justified", "keep_justified", "lost_goal"]
