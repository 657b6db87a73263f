"""Plan refinement: the model rewrites titles and descriptions, code keeps the facts.

The deterministic plan is right about ids and coverage, so the model's answer is merged into
it rather than trusted: a planned behaviour keeps its id, type, case, covers, facts and
priority whatever the model returned (only title and description change); a planned
behaviour the model left out stays as planned; a new behaviour is kept only when its covers
name elements the plan already covers and its type is known.

The model answers with edits (the behaviours it rewords, by id, and any additions), never
by re-typing the plan, and is shown only what those edits need (`plan_view`): a small local
model's 8k context cannot hold a plan's covers and facts twice over.
"""

from __future__ import annotations

import re
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from ...planning import CASE_TYPES, Behavior
from ._edits import PlanEdit

#: Cap on direction-driven additions per source, so one answer cannot flood a suite.
MAX_NEW_BEHAVIORS = 8
#: New behaviours exist because the person asked for them: rank them ahead of most planned
#: ones when `--count` trims the suite.
NEW_BEHAVIOR_PRIORITY = 20


# Loosely typed on purpose: one odd item (an unknown type, a missing title) is dropped by
# `merge_plan` instead of failing the whole answer. (A comment, not the docstring: the
# docstring is the schema's description, sent to the model with every call.)
class PlannedBehavior(BaseModel):
    """A reworded behaviour (its id, title, description) or a new one (id null)."""

    model_config = ConfigDict(extra="ignore")

    id: str | None = Field(default=None, description="A given behaviour's id; null if new")
    type: str = Field(default="", description="New only: one of " + ", ".join(CASE_TYPES))
    case: str = Field(default="", description="New only: snake_case slug")
    title: str = ""
    description: str = ""
    covers: list[str] = Field(default_factory=list, description="New only: from <Elements>")
    facts: dict[str, Any] = Field(default_factory=dict, description="New only: real values")


class RefinedPlan(BaseModel):
    """Edits to the coverage plan: reworded or added behaviours, and corrections to cases."""

    behaviors: list[PlannedBehavior] = Field(default_factory=list)
    edits: list[PlanEdit] = Field(default_factory=list)


#: What the prompt says instead of ids and elements when no direction asks for additions
#: (with no direction nothing is added, so neither is needed).
NOT_NEEDED = "none (no direction: nothing is added)"


def plan_view(behaviors: list[Behavior]) -> str:
    """What the model needs of the planned behaviours to reword them, one line each: id,
    type, title, description and the scalar facts that make it specific (a chosen value, a
    kind). The covers and the list-valued facts stay out: the model does not change them,
    and they were most of a plan's size."""
    return "\n".join(_line(b) for b in behaviors)


def _line(behavior: Behavior) -> str:
    facts = "; ".join(
        f"{key}={value}" for key, value in _flat(behavior.facts) if value not in ("", None)
    )
    line = f"- {behavior.id} ({behavior.type}) {behavior.title!r}: {behavior.description}"
    return f"{line} [facts: {facts}]" if facts else line


def _flat(facts: dict[str, Any]) -> list[tuple[str, Any]]:
    """The scalar facts, a flat mapping's entries in place of the mapping, each pair once
    (two mappings may hold the same value: a choice and the values given up front)."""
    out: list[tuple[str, Any]] = []
    for key, value in facts.items():
        if key in BOOKKEEPING_FACTS:
            continue
        if isinstance(value, dict) and all(_scalar(v) for v in value.values()):
            out += list(value.items())
        elif _scalar(value):
            out.append((key, value))
    return list(dict.fromkeys(out))


def covered_elements(behaviors: list[Behavior]) -> list[str]:
    """Every element the plan covers, once each: what a new behaviour may cover."""
    return list(dict.fromkeys(element for b in behaviors for element in b.covers))


def lean_ids(ids: Any) -> Any:
    """The ids without their prose (descriptions, response texts) and where each is defined
    (scope, source): the names and values a new behaviour's facts may use; the definition
    beside them says what each one is for."""
    if isinstance(ids, dict):
        return {k: lean_ids(v) for k, v in ids.items() if k not in _PROSE}
    if isinstance(ids, list):
        return [lean_ids(v) for v in ids]
    return ids


_PROSE = frozenset({"description", "text", "scope", "source", "mcp_server"})
#: Facts that are the planner's own bookkeeping, not the case's: the digest of the path a
#: behaviour walks (for telling duplicates apart) and the planner's label of its kind (the
#: type and description say it in words) give a rewording nothing.
BOOKKEEPING_FACTS = frozenset({"path", "kind"})


def _scalar(value: Any) -> bool:
    return isinstance(value, str | int | float | bool) or value is None


def merge_plan(
    planned: list[Behavior], refined: RefinedPlan, *, source: str, dialect: str
) -> list[Behavior]:
    """The planned behaviours with the model's wording, then the acceptable additions."""
    answered = {b.id: b for b in refined.behaviors if b.id}
    merged = [
        b.model_copy(update=_wording(answered[b.id])) if b.id in answered else b for b in planned
    ]
    allowed = {element for b in planned for element in b.covers}
    taken = {b.id for b in planned}
    added: list[Behavior] = []
    for candidate in refined.behaviors:
        if candidate.id in taken or len(added) >= MAX_NEW_BEHAVIORS:
            continue
        if candidate.type not in CASE_TYPES or not set(candidate.covers) <= allowed:
            continue
        if not (candidate.title.strip() and candidate.description.strip()):
            continue
        case = _slug(candidate.case or candidate.title)
        behavior_id = _unique(f"{source}:{case}", taken)
        taken.add(behavior_id)
        added.append(
            Behavior(
                id=behavior_id,
                source=source,
                dialect=dialect,
                type=candidate.type,
                case=behavior_id.split(":", 1)[1],
                title=candidate.title.strip(),
                description=candidate.description.strip(),
                covers=list(dict.fromkeys(candidate.covers)),
                facts=candidate.facts,
                priority=NEW_BEHAVIOR_PRIORITY,
            )
        )
    return merged + added


def _wording(answer: PlannedBehavior) -> dict[str, str]:
    update: dict[str, str] = {}
    if answer.title.strip():
        update["title"] = answer.title.strip()
    if answer.description.strip():
        update["description"] = answer.description.strip()
    return update


def _slug(text: str) -> str:
    slug = re.sub(r"[^a-z0-9]+", "_", text.lower()).strip("_")
    return slug[:48] or "case"


def _unique(behavior_id: str, taken: set[str]) -> str:
    if behavior_id not in taken:
        return behavior_id
    n = 2
    while f"{behavior_id}_{n}" in taken:
        n += 1
    return f"{behavior_id}_{n}"
