"""Figures 1-3: happy paths that assert success, refused confirmations, decisive cases.

Each figure is a share `passed / counted` with the items that missed it, so a person can
open the file that lowered it.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from evalcore.definitions import Project
from evalcore.definitions.conditions import condition_keys, conjuncts, evaluate

from ._cases import NOT_GOAL_DIRECTED, ScoredCase, memory_entries
from .skills import Gate, SkillSignals, skill_signals


@dataclass
class Share:
    """`passed` of `counted`, and what missed (file paths or `skill/tool` ids)."""

    passed: int = 0
    counted: int = 0
    missed: list[str] = field(default_factory=list)

    @property
    def value(self) -> float | None:
        return None if self.counted == 0 else self.passed / self.counted

    def add(self, ok: bool, label: str) -> None:
        self.counted += 1
        if ok:
            self.passed += 1
        else:
            self.missed.append(label)


def _is_error(body: Any) -> bool:
    return isinstance(body, dict) and body.get("is_error") is True


def _tool_success(name: str, body: Any, skill_id: str | None) -> bool:
    """`tool_executed` of `name` (on behalf of `skill_id` if it says) that did not fail."""
    if not isinstance(body, dict) or body.get("tool_name") != name or _is_error(body):
        return False
    on_behalf = body.get("skill_id")
    return on_behalf is None or skill_id is None or on_behalf == skill_id


def _utters(body: Any, names: Iterable[str]) -> bool:
    return isinstance(body, dict) and body.get("utter_name") in set(names)


def asserts_success(case: ScoredCase, signals: SkillSignals) -> bool:
    """A success signal of the skill, and nothing that says its success did not happen.
    Where what the session knows up front rules out every success tool (the phone line
    of a skill whose upload link needs another channel), the path's own work is its
    success: the run of any tool of the skill counts."""
    checks = list(case.checks())
    ran = _successes(checks, signals) | _judged(case.criteria, signals)
    seeded = case.seeded
    found = bool(ran) or _answers(checks, signals, seeded, case.criteria)
    any_tool = all(ruled_out(signals.requires.get(t), seeded) for t in signals.success)
    for key, body in checks:
        if _contradicts(key, body, signals, ran):
            return False
        if key == "tool_executed" and any_tool:
            found = found or any(_tool_success(t, body, signals.skill_id) for t in signals.tools)
        elif key == "skill_completed" and isinstance(body, dict):
            found = found or body.get("skill_id") == signals.skill_id
        elif key == "memory_was_set":
            found = found or any(
                name in signals.success_fields and has_value and value not in (False, None, 0, "")
                for name, has_value, value in memory_entries(body)
            )
    return found


def _judged(criteria: list[str], signals: SkillSignals) -> set[str]:
    """The success tools of the skill a criterion names: where the case cannot fix
    whether the success comes (the clock picks the branch, an outside list may hold nothing
    the user can take), the drafter leaves it to the judge ("If the user picks one …, the
    agent goes on to claim_open_shift") instead of asserting a run a correct agent may
    not make."""
    words = {w.strip(".,;:()\"'") for c in criteria for w in c.split()}
    return words & set(signals.success)


def _answers(
    checks: list[tuple[str, Any]],
    signals: SkillSignals,
    seeded: dict[str, Any],
    criteria: list[str],
) -> bool:
    """Whether the values the case asserts route it to a mode whose task is the answer
    (`SkillSignals.answers`): no tool, no `complete_when`, so nothing else to assert. Where
    no line tells the agent to set the field the mode's condition reads, no case asserts
    that value: a criterion quoting the mode's own paragraph says which mode it plays."""
    if not signals.answers:
        return False
    known = dict(seeded)
    activated = False
    for key, body in checks:
        if key == "memory_was_set":
            known.update({n: v for n, has_value, v in memory_entries(body) if has_value})
        activated = activated or (
            key == "skill_activated"
            and isinstance(body, dict)
            and body.get("skill_id") == signals.skill_id
        )
    if not activated:
        return False
    if any(_holds(condition, known) for condition in signals.answers):
        return True
    return signals.quoted_by(criteria)


def _holds(condition: str, known: dict[str, Any]) -> bool:
    if not condition:  # the skill's whole task is the answer
        return True
    keys = condition_keys(condition)
    return bool(keys) and all(k in known for k in keys) and bool(evaluate(condition, known))


def ruled_out(condition: str | None, known: dict[str, Any]) -> bool:
    """Whether `condition` is false whatever happens later: a part of it (joined by a
    top-level `and`) that reads only `known` values is false."""
    if not condition or not known:
        return False
    for part in conjuncts(condition) or [condition]:
        keys = condition_keys(part)
        if keys and all(k in known for k in keys) and not evaluate(part, known):
            return True
    return False


def _successes(checks: list[tuple[str, Any]], signals: SkillSignals) -> set[str]:
    """The success tools whose run the case asserts (the tool ran, or a response after it).
    A lookup on the way is not one: a path that stops at it never did the task."""
    out = set()
    for key, body in checks:
        for tool, evidence in signals.success.items():
            by_tool = key == "tool_executed" and _tool_success(tool, body, signals.skill_id)
            by_response = key == "bot_uttered" and _utters(body, evidence.responses)
            if by_tool or by_response:
                out.add(tool)
    return out


def _contradicts(key: str, body: Any, signals: SkillSignals, ran: set[str]) -> bool:
    """A check that says a success did not happen: `memory_was_not_set` of a
    `complete_when` field, or a check against a success tool's evidence (a key it writes,
    a response after it) when the case asserts no other success tool's run (a happy path
    of another mode may say that this mode's tool did not run)."""
    denied: set[str] = set()
    if key == "bot_did_not_utter":
        denied = {t for t, e in signals.success.items() if _utters(body, e.responses)}
    elif key == "memory_was_not_set":
        for name, has_value, value in memory_entries(body):
            if name in signals.success_fields and not has_value:
                return True
            denied |= {t for t, e in signals.success.items() if e.denied_by(name, has_value, value)}
    return bool(denied) and not (ran - denied)


def refuses(case: ScoredCase, gate: Gate, skill_id: str) -> bool:
    """The case shows the user declining `gate`'s confirmation, and not the tool's success:
    `bot_uttered` of the denial response, or any check that the tool's success did not
    happen (an agent that asks in its own words first takes the decline before the gate,
    so a case may leave the gate's responses out), and no `tool_executed`/`on_success`."""
    shown = False
    for key, body in case.checks():
        if key == "tool_executed" and _tool_success(gate.tool, body, skill_id):
            return False
        if key == "bot_uttered" and gate.on_success and _utters(body, [gate.on_success]):
            return False
        if key == "bot_uttered" and gate.denial is not None:
            shown = shown or _utters(body, [gate.denial])
        elif key == "bot_did_not_utter" and gate.on_success:
            shown = shown or _utters(body, [gate.on_success])
        elif key == "memory_was_not_set":
            shown = shown or any(name in gate.writes for name, _, _ in memory_entries(body))
    return shown


def decisive(case: ScoredCase) -> bool:
    """It asserts something beyond which skill started. (`goal_figures` also counts a case
    whose success is left to the judge by a criterion naming the success tool: the clock or
    an outside answer decides which side a correct agent takes, as `no-decisive-assertion`
    in review accepts.)"""
    return any(key != "skill_activated" for key, _ in case.checks())


@dataclass
class GoalFigures:
    happy: Share = field(default_factory=Share)
    refusal: Share = field(default_factory=Share)
    decisive: Share = field(default_factory=Share)


def goal_figures(
    cases: list[ScoredCase], project: Project, skills: Iterable[str] | None = None
) -> GoalFigures:
    """Figures 1-3 over the parsed cases of a suite.

    Gated tools are counted for `skills` (default: the skills the suite has a case of, so
    scoring one skill's folder does not count the others' gates as missed).
    """
    defs = project.mantle
    assert defs is not None
    out = GoalFigures()
    signals: dict[str, SkillSignals] = {}

    def of(skill_id: str) -> SkillSignals:
        if skill_id not in signals:
            signals[skill_id] = skill_signals(project, skill_id)
        return signals[skill_id]

    by_skill: dict[str, list[ScoredCase]] = {}
    for case in cases:
        if not case.parsed:
            continue
        label = str(case.path)
        for skill_id in case.skills() or [case.primary_skill(project)]:
            if skill_id in defs.skills:
                by_skill.setdefault(skill_id, []).append(case)
        if case.type not in NOT_GOAL_DIRECTED:
            primary = case.primary_skill(project)
            judged = primary in defs.skills and bool(_judged(case.criteria, of(primary)))  # type: ignore[arg-type]
            out.decisive.add(decisive(case) or judged, label)
        if case.type == "happy_path":
            primary = case.primary_skill(project)
            ok = primary in defs.skills and asserts_success(case, of(primary))  # type: ignore[arg-type]
            out.happy.add(ok, label)
    chosen = sorted(by_skill) if skills is None else sorted(set(skills))
    for skill_id in chosen:
        if skill_id not in defs.skills:
            continue
        for gate in of(skill_id).gates:
            ok = any(refuses(c, gate, skill_id) for c in by_skill.get(skill_id, []))
            out.refusal.add(ok, f"{skill_id}/{gate.tool}")
    return out


__all__ = ["GoalFigures", "Share", "asserts_success", "decisive", "goal_figures", "refuses"]
