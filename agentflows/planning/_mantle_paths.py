"""Paths over the skill model: path identity, the fields a skill routes on, and the project's
own cases.

- `path_id`: what makes two behaviours the same case — the kind, the walk (asks with their
  answers, tool runs, outcome) and the decisive facts. Dedupe compares it: behaviours with
  different path ids are never duplicates, however alike their words.
- `mode_fields`: text fields the skill compares with several literals (`mode == "list"`), as
  fields whose values are those literals, so each mode gets its own happy path.
- `project_skill` / `project_rule`: out-of-scope and adversarial cases are planned per
  project, on one skill: the skill marked `routing.is_default`, else the most central one
  (the visible, non-hand-off skill that asks and runs the most). The adversarial case targets
  a rule the prose states ("Never disclose ..."): the central skill's own, else another
  skill's (then it is planned on that skill), else one of `agent.yml`'s rules; a project
  that states no rule gets no adversarial case.
"""

from __future__ import annotations

import hashlib
import json
import re
from typing import Any

from evalcore.definitions import MemoryField, Project, memoized
from evalcore.definitions.skill_model import skill_model
from evalcore.lexicon.en.skill_rules import GIVING_AWAY, NEVER_RULE, TELL_ANYONE
from evalcore.lexicon.en.word_classes import BE_FORMS

from ._mantle_routable import user_routable
from ._mantle_walk import Walk

# ": that is the adjuster's call": a reason, not the act
_NEVER = NEVER_RULE

#: Rules about giving something away rank first (the last one stated wins a tie).
_STRONG = GIVING_AWAY


def path_id(kind: str, walk: Walk, facts: dict[str, Any]) -> str:
    """A stable digest of the path a behaviour walks and the facts that decide it."""
    signature = {
        "kind": kind,
        "skill": walk.skill,
        "asks": [[a.kind, a.skill, a.step, a.field, a.value, a.tool, a.confirm] for a in walk.asks],
        "tools": [[e.tool, e.error] for e in walk.tools()],
        "outcome": walk.outcome,
        "handoff": walk.handoff,
        "facts": {k: v for k, v in facts.items() if k not in ("direction", "path", "success")},
    }
    text = json.dumps(signature, sort_keys=True, default=repr)
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def mode_fields(project: Project, skill_id: str) -> list[MemoryField]:
    """Non-categorical fields the model reads as modes, with the literals as their values."""
    assert project.mantle is not None
    memory = project.mantle.memory_names()
    out = []
    for mode in skill_model(project, skill_id).modes:
        field = memory.get(mode.field)
        if field is None or (field.type == "categorical" and field.enum_values):
            continue
        if field.namespace != skill_id or len(mode.values) < 2:
            continue
        out.append(field.model_copy(update={"enum_values": [v.value for v in mode.values]}))
    return out


def _weight(project: Project, skill_id: str) -> int:
    model = skill_model(project, skill_id)
    return len(model.fields) + 2 * len(model.tools) + len(model.branches)


def project_skill(project: Project) -> str | None:
    """The skill the project's out-of-scope (and, by default, adversarial) case is planned on:
    one per loaded project (each skill's plan asks; weighing every skill each time grew as
    skills²)."""
    defs = project.mantle
    assert defs is not None
    key = ("project_skill", id(defs), id(defs.skills), len(defs.skills))
    return memoized(project, key, lambda: _project_skill(project))


def _project_skill(project: Project) -> str | None:
    assert project.mantle is not None
    skills = [s for s in project.mantle.skills.values() if user_routable(s) and not s.is_handoff]
    if not skills:
        return None
    for skill in skills:
        routing = skill.frontmatter.get("routing")
        if isinstance(routing, dict) and routing.get("is_default") is True:
            return skill.id
    return max(sorted(s.id for s in skills), key=lambda s: _weight(project, s))


def _as_request(text: str) -> str | None:
    """The act a rule forbids, as a user would ask for it: the first prohibition of the
    sentence only ("share a coworker's phone number, pay rate or hours" of "Never share ...,
    and never say why ..."), and none where the sentence only describes ("Secret values are
    never shown here": no act to ask for, the line would be a fragment)."""
    match = _NEVER.search(text)
    # a form of "be" before "never" makes the sentence a description, not a command
    if match is None or any(w in BE_FORMS for w in text[: match.start()].split()[-1:]):
        return None
    act = match["rule"]
    second = _NEVER.search(act)
    if second is not None:  # "..., and never say why": the next prohibition is another act
        kept = act[: second.start()].split()
        while kept and kept[-1].lower().strip(",") in {"and", "or", "nor", ""}:
            kept.pop()
        act = " ".join(kept)
    rule = re.sub(
        r"@\w+\.(\w+(?:\.\w+)*)",
        lambda m: m.group(1).split(".")[-1].replace("_", " "),
        act,
    )
    # "tell anyone they may start": the user pushing for it asks it for themselves
    rule = _ANYONE.sub(lambda m: f"{m['verb']} me", rule)
    return " ".join(rule.split()).rstrip(",") or None


_ANYONE = TELL_ANYONE


def project_rule(project: Project) -> tuple[str, str, str] | None:
    """(skill to plan on, the rule as something to ask for, where it is stated), or None:
    one per loaded project, as `project_skill`."""
    defs = project.mantle
    assert defs is not None
    key = ("project_rule", id(defs), id(defs.skills), len(defs.skills))
    return memoized(project, key, lambda: _project_rule(project))


def _project_rule(project: Project) -> tuple[str, str, str] | None:
    assert project.mantle is not None
    central = project_skill(project)
    if central is None:
        return None
    order = [central, *sorted(s for s in project.mantle.skills if s != central)]
    for skill_id in order:
        skill = project.mantle.skills[skill_id]
        if not user_routable(skill):
            continue
        rules = skill_model(project, skill_id).rules
        strong = [r for r in rules if _STRONG.search(r.text)]
        for rule in reversed(strong or rules):
            request = _as_request(rule.text)
            if request:
                return skill_id, request, rule.where.label()
    rules = project.mantle.agent.get("rules")
    for rule in rules if isinstance(rules, list) else []:
        request = _as_request(str(rule))
        if request:
            return central, request, "agent.yml"
    return None


__all__ = ["mode_fields", "path_id", "project_rule", "project_skill"]
