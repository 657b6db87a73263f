"""Plan refinement: the model rewrites titles and descriptions, code keeps the facts.

The deterministic plan is right about ids and coverage, so the model's answer is merged into
it rather than trusted: a planned behaviour keeps its id, type, case, covers, facts and
priority whatever the model returned (only title and description change); a planned
behaviour the model left out stays as planned; a new behaviour is kept only when its covers
name elements the plan already covers and its type is known.
"""

from __future__ import annotations

import re
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from ...planning import CASE_TYPES, Behavior

#: Cap on direction-driven additions per source, so one answer cannot flood a suite.
MAX_NEW_BEHAVIORS = 8
#: New behaviours exist because the person asked for them: rank them ahead of most planned
#: ones when `--count` trims the suite.
NEW_BEHAVIOR_PRIORITY = 20


class PlannedBehavior(BaseModel):
    """One behaviour of the refined plan.

    Loosely typed on purpose: one odd item (an unknown type, a missing title) is dropped by
    `merge_plan` instead of failing the whole answer.
    """

    model_config = ConfigDict(extra="ignore")

    id: str | None = Field(
        default=None, description="The given behaviour's id; null for a new behaviour."
    )
    type: str = Field(description="One of: " + ", ".join(CASE_TYPES) + ".")
    case: str = Field(default="", description="Short snake_case slug.")
    title: str = Field(default="", description="Short human title (the case name).")
    description: str = Field(default="", description="What the case must show.")
    covers: list[str] = Field(default_factory=list, description="Element ids exercised.")
    facts: dict[str, Any] = Field(default_factory=dict, description="Real values to use.")


class RefinedPlan(BaseModel):
    """The coverage plan with refined titles and descriptions, plus any added behaviours."""

    behaviors: list[PlannedBehavior]


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
