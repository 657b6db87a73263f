"""A reason the user gives where the case's path asks for one that no field holds.

"Ask how many installments (set plan_installments) and the reason in a few words, then call
request_payment_plan", with `request_payment_plan(resident_id, installments, reason)`; "Ask
what the page is about in one line if they did not say, then page the team's primary". No
memory entry holds the reason, so a case built from the walk's asks gives the user none: a
correct agent asks, and the simulator invents one (or the agent files the request without
it). So the case's user has one, in a few words, of the kind the skill is about
(`evalcore.testdata.reason_for`: hours cut this month for a payment plan, error rates
climbing for a page), taken from

- a required parameter named for a reason (`reason`) of a call the path makes or asks the
  user to confirm that no memory entry fills;
- else a sentence on the path that asks what the request is about ("ask what the page is
  about", "ask why").

Nothing of the kind fits: no fact, never filler.
"""

from __future__ import annotations

from typing import Any

from evalcore.definitions import Project, Skill
from evalcore.definitions.skill_model import skill_model
from evalcore.testdata import case_rng, reason_for

from ._direction import value_words
from ._mantle_caller_fit import branch_prose
from ._mantle_facts import asked_clause
from ._mantle_script_state import Walk

#: Words of a parameter's name that say it holds the user's reason.
_REASON = frozenset({"reason", "why"})
#: How a clause ends that asks what a request is about ("what the page is about").
_ABOUT = " is about"


def _unfilled_reason(project: Project, skill_id: str, tool: str) -> str | None:
    """The name of a required parameter of `tool` named for a reason that no memory entry
    fills, or None."""
    assert project.mantle is not None
    defs = project.mantle
    declared = defs.tools_for(skill_id).get(tool)
    model = skill_model(project, skill_id)
    use = model.tool(tool) if model is not None else None
    filled = set(use.arguments) if use is not None else set()
    for param in declared.parameters if declared is not None else ():
        if not param.required or param.name in filled:
            continue
        if defs.memory_field(f"{skill_id}.{param.name}") or defs.memory_field(param.name):
            continue
        if _REASON & set(param.name.lower().split("_")):
            return param.name
    return None


def _about_clause(skill: Skill, memory: dict[str, Any]) -> str | None:
    """The clause of a sentence on the path that asks what the request is about ("what
    the page is about"), or why."""
    for text in branch_prose(skill, memory):
        clause = asked_clause(text)
        if clause is None:
            continue
        head = clause.split(" in ")[0] if _ABOUT in clause else clause
        if (head.endswith(_ABOUT) and head.startswith("what ")) or head.startswith("why"):
            return head
    return None


def reason_facts(project: Project, walk: Walk, key: str) -> list[tuple[str, str]]:
    """(label, reason) for the case's path (see the module's doc); `key` seeds the draw."""
    assert project.mantle is not None
    defs = project.mantle
    skill = defs.skills.get(walk.skill)
    if skill is None:
        return []
    label = None
    # the calls it makes, and those it asks to confirm (a declined one is asked for too)
    calls = [
        e.tool for e in walk.events if e.kind == "tool" and (e.skill or walk.skill) == skill.id
    ]
    calls += [a.tool for a in walk.asks if a.kind == "confirm" and a.skill == skill.id]
    for tool in dict.fromkeys(c for c in calls if c):
        name = _unfilled_reason(project, skill.id, tool)
        if name is not None:
            label = value_words(name)
            break
    label = label or _about_clause(skill, dict(walk.memory))
    if label is None:
        return []
    context = f"{skill.name or ''} {skill.description or ''} {skill.body or ''}"
    said = reason_for(context, case_rng(key, "reason"))
    return [(label, said)] if said is not None else []


__all__ = ["reason_facts"]
