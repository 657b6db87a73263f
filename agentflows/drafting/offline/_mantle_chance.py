"""Branches that chance decides: an `if:` on a value a tool draws at random.

A tool whose code draws at random (`random.randint(10, 140)` for a speed test) writes values
no case can fix, so the skill's `if:` on them ("if: session.diag.speed_is_slow == True")
takes either branch in a real run. A case of such a skill says what to do on each branch
(the simulated user's answers to every branch's questions, `branch_memory`), and a criterion
about a branch is paired with the other branch's, so it checks something whichever way the
run goes instead of passing vacuously on the branch it did not name (`paired_rule`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from evalcore.definitions import Project
from evalcore.definitions.conditions import condition_keys, evaluate
from evalcore.definitions.skill_model import code_facts, paragraphs, skill_model, tool_keys

from ._mantle_criteria import Rule, prose_rules


def chance_keys(project: Project, skill_id: str) -> frozenset[str]:
    """Qualified keys a tool that draws at random writes, for the skill or a skill it hands
    the work to (`@skill.run_diagnostics`, a block's `call:`)."""
    return frozenset(k for keys in _drawn(project, skill_id).values() for k in keys)


def chance_tools(project: Project, skill_id: str) -> list[str]:
    """The tools behind `chance_keys`."""
    return list(_drawn(project, skill_id))


def _drawn(project: Project, skill_id: str) -> dict[str, set[str]]:
    defs = project.mantle
    if defs is None or skill_id not in defs.skills:
        return {}
    model = skill_model(project, skill_id)
    callees = [d.target for d in (model.delegations if model else []) if d.target in defs.skills]
    out: dict[str, set[str]] = {}
    for owner in dict.fromkeys([skill_id, *callees]):
        for tool in defs.tools_for(owner).values():
            if code_facts(project, tool).chance:
                out.setdefault(tool.name, set()).update(tool_keys(project, tool, owner))
    return out


def on_chance(condition: str | None, keys: frozenset[str]) -> bool:
    """Whether an `if:` condition reads a value chance decides."""
    if not condition or not keys:
        return False
    read = {k.removeprefix("session.") for k in condition_keys(condition)}
    return bool(read & keys)


def branch_memory(
    condition: str, memory: Mapping[str, Any], keys: frozenset[str]
) -> dict[str, Any] | None:
    """`memory` with the chance keys the condition reads set so that it holds (yes/no
    values tried both ways), or None where no such setting makes it hold."""
    read = sorted({k.removeprefix("session.") for k in condition_keys(condition)} & keys)
    settings: list[dict[str, Any]] = [{}]
    for key in read:
        settings = [{**s, key: value} for s in settings for value in (True, False)]
    for setting in settings:
        trial = {**memory, **setting}
        try:
            if evaluate(condition, trial):
                return trial
        except Exception:  # an unreadable condition: no branch to speak of
            return None
    return None


def paired_rule(
    project: Project, skill_id: str, memory: Mapping[str, Any], keys: frozenset[str]
) -> str | None:
    """One criterion over the first `if:` on a chance value and the first other branch on
    the same value: "When the speed is slow, the agent says the speed is too low, otherwise
    (when the speed is not slow) it says the line speed looks healthy". Each half holds on its
    own branch, so whichever the run takes, the criterion checks what the agent said."""
    first: Rule | None = None
    for rule in _chance_rules(project, skill_id, memory, keys):
        if first is None:
            first = rule
        elif rule.condition != first.condition and _same_keys(rule, first):
            # "When B, the agent Y" -> "(when B) it Y": one check a split never cuts in two
            when, _, what = rule.text.partition(", the agent ")
            if not what:
                continue
            return f"{first.text}, otherwise ({when[:1].lower()}{when[1:]}) it {what}"
    return None


def _chance_rules(
    project: Project, skill_id: str, memory: Mapping[str, Any], keys: frozenset[str]
) -> list[Rule]:
    """The first rule of each `if:` paragraph on a chance value, in body order, each read
    with memory where its branch holds."""
    defs = project.mantle
    assert defs is not None
    skill = defs.skills[skill_id]
    out: list[Rule] = []
    seen: set[str | None] = set()
    for condition in _conditions(skill.body or ""):
        if condition in seen or not on_chance(condition, keys):
            continue
        seen.add(condition)
        branch = branch_memory(condition, memory, keys)
        if branch is None:
            continue
        rule = next((r for r in prose_rules(defs, skill, branch) if r.condition == condition), None)
        if rule is not None:
            out.append(rule)
    return out


def _same_keys(one: Rule, other: Rule) -> bool:
    return set(condition_keys(one.condition or "")) == set(condition_keys(other.condition or ""))


def _conditions(body: str) -> list[str]:
    return [p.condition for p in paragraphs(body) if p.condition]


def other_branches(
    project: Project, skill_id: str, memory: Mapping[str, Any], keys: frozenset[str]
) -> list[dict[str, Any]]:
    """The chance values of each branch of the skill that a walk ending with `memory` did
    not take (each walked with them fixed: what the user is asked there, they must know)."""
    defs = project.mantle
    assert defs is not None
    out: list[dict[str, Any]] = []
    for condition in _conditions(defs.skills[skill_id].body or ""):
        if not on_chance(condition, keys):
            continue
        branch = branch_memory(condition, memory, keys)
        if branch is None:
            continue
        fixed = {k: branch[k] for k in sorted(keys) if k in branch}
        if fixed in out or all(memory.get(k) == v for k, v in fixed.items()):
            continue
        out.append(fixed)
    return out


def gated_callees(
    project: Project, skill_id: str, keys: frozenset[str]
) -> list[tuple[str, list[str]]]:
    """Skills a branch on a chance value hands the work to that ask to confirm before an
    action (`requires_confirmation`), with those tools: the user needs its answers (which
    router) and a yes or no for it, whichever way the run goes."""
    defs = project.mantle
    assert defs is not None
    model = skill_model(project, skill_id)
    out: list[tuple[str, list[str]]] = []
    for item in model.delegations if model else []:
        callee = defs.skills.get(item.target)
        if callee is None or callee.is_handoff or not on_chance(item.condition, keys):
            continue
        gated = [
            name
            for name, c in callee.tool_constraints.items()
            if c.requires_confirmation is not None and c.requires_confirmation.enabled
        ]
        if gated and callee.id not in [c for c, _ in out]:
            out.append((callee.id, gated))
    return out


def chance_skills(project: Project, skill_id: str, keys: frozenset[str]) -> frozenset[str]:
    """Skills the case's skill hands the work to only on a branch chance decides: whether a
    run gets there is up to the draw, so nothing of theirs is asserted."""
    defs = project.mantle
    model = skill_model(project, skill_id)
    if defs is None or model is None or not keys:
        return frozenset()
    chance = {d.target for d in model.delegations if on_chance(d.condition, keys)}
    always = {d.target for d in model.delegations if not d.condition}
    return frozenset(chance - always - {skill_id})


def without_skills(checks: list[dict[str, Any]], skills: frozenset[str]) -> list[dict[str, Any]]:
    """`checks` without what belongs to `skills`: their activation, completion, tool runs
    and memory (a list assertion or a sequencing keeps its other parts)."""
    out: list[dict[str, Any]] = []
    for check in checks:
        kept = _kept(check, skills)
        if kept is not None:
            out.append(kept)
    return out


def _kept(check: dict[str, Any], skills: frozenset[str]) -> dict[str, Any] | None:
    if not skills or len(check) != 1:
        return check
    ((kind, body),) = check.items()
    if kind == "sequencing" and isinstance(body, list):
        steps = without_skills(body, skills)
        return {kind: steps} if len(steps) > 1 else None
    if isinstance(body, list):
        items = [i for i in body if not _owned(i, skills)]
        return {kind: items} if items else None
    return None if _owned(body, skills) else check


def _owned(body: Any, skills: frozenset[str]) -> bool:
    """Whether a check's body names one of `skills` (`skill_id`, a `skill.key` entry) or
    a response of theirs (`skills` holds those too: `responses_of`)."""
    if isinstance(body, str):  # a sequencing's `memory_was_set: skill.key`
        return body.split(".", 1)[0] in skills
    if not isinstance(body, dict):
        return False
    if str(body.get("skill_id") or "") in skills or str(body.get("utter_name")) in skills:
        return True
    return str(body.get("name") or "").split(".", 1)[0] in skills


def responses_of(project: Project, skills: frozenset[str]) -> frozenset[str]:
    """The responses the runtime says for `skills`' gates and tool results, and their
    `utter:` rules."""
    defs = project.mantle
    assert defs is not None
    out: set[str] = set()
    for skill in [defs.skills[s] for s in skills if s in defs.skills]:
        for constraint in skill.tool_constraints.values():
            confirm = constraint.requires_confirmation
            if confirm is not None:
                out |= {confirm.utter_for_confirmation or "", confirm.utter_on_user_denial or ""}
            out |= {constraint.on_success or "", constraint.on_failure or ""}
        out |= {rule.response for rule in skill.utter}
    return frozenset(out - {""})


__all__ = [
    "branch_memory",
    "chance_keys",
    "chance_skills",
    "chance_tools",
    "gated_callees",
    "on_chance",
    "other_branches",
    "paired_rule",
    "responses_of",
    "without_skills",
]
