"""`no-decisive-assertion`: the case can pass without the one fact it exists to show.

Criteria are graded by a model; the non-negotiable fact of a case (the order was placed, the
refused order was not, the appointment exists, the file was written) needs a deterministic
check, or a run that skipped it can still pass.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from evalcore.definitions.skill_model import quoted_windows, tool_keys
from evalcore.dialects import END_STATE_CHECKS, EVENT_ASSERTIONS, WORKSPACE_CHECKS
from evalcore.dialects.mantle import assertion_items
from evalcore.lexicon.en.case_wording import BOOKING, CONFIRM_ANSWER, REFUSAL, WRITES
from evalcore.lexicon.notation.file_names import PATH_MENTION as _FILE_PATH
from evalcore.lint import as_dict, as_list
from evalcore.simulator import parse_fact_context

from ...scoring.skills import answers_only, skill_signals
from .._views import CaseView, ReviewEnv
from ._registry import Hit, at, define_rule

#: Assertions that show a Mantle task actually got done.
_MANTLE_DONE = {
    "skill_completed",
    "tool_executed",
    "memory_was_set",
    "ordered_block_completed",
    "tools_within_one_turn",
}
#: A fact-sheet context's own word on the read-back: it says whether the user refuses.
_CONFIRM_ANSWER = CONFIRM_ANSWER
_REFUSAL = REFUSAL
#: Anychat checks on what the conversation changed (as opposed to how it sounded).
_ANYCHAT_STATE = {
    "outcomes",
    "appointmentCreated",
    "activeAppointments",
    "personFields",
    "toolsCalled",
}
_BOOKING_STATE = {"appointmentCreated", "outcomes", "activeAppointments"}
#: Checks that pin what must *not* happen or where the conversation must end: decisive for
#: guardrail, hand-off and off-topic cases, whose point is that the playbook's job is not done.
_NEGATIVE_STATE = {"withheld", "noReplyTo", "handoff"}
#: Checks that look at the project's files: `command-passes` runs in the project folder (its
#: command reads what the agent wrote: runs its tests, imports its module).
_FILE_CHECKS = {
    "file-exists",
    "file-content",
    "file-content-excluded",
    "valid-json",
    "command-passes",
}
_CONFIG_CHECKS = {"entity-config", "agent-config", "function-def"}
_WRITES = WRITES


NO_DECISIVE_ASSERTION = define_rule(
    "no-decisive-assertion",
    severity="error",
    summary="No assertion or check on the fact the case exists to show (a happy path that "
    "never checks completion, a refusal with nothing that shows the gated tool held back, a "
    "booking without the appointment, a file-writing prompt without file checks).",
)


# --- Mantle --------------------------------------------------------------------------------


def _refuses(scenario: dict, name: str) -> bool:
    """A refused-confirmation case: the context declines the read-back; without such a
    line, the title or file name says so ("declines", "refused_..."). A value in the title
    ("card problem: declined") does not make a case a refusal when its context agrees."""
    context = str(scenario.get("simulation_context") or "")
    if parse_fact_context(context).gate is not None:  # "asks whether to move it, decline"
        return parse_fact_context(context).confirm == "decline"
    said = _CONFIRM_ANSWER.search(context)
    if said is not None:
        return said.group("answer").lower() == "decline"
    # a value the case asserts (`mode: decline`) names the branch it plays, not a refusal
    for value in _asserted_values(scenario):
        name = re.sub(rf"(?<![a-z]){re.escape(value)}(?![a-z])", " ", name, flags=re.I)
    return _REFUSAL.search(name) is not None


def _asserted_values(scenario: dict) -> set[str]:
    """The text values the case's `memory_was_set` checks assert (`decline`)."""
    goals = as_dict(scenario.get("goals"))
    return {
        str(as_dict(entry).get("value"))
        for item in assertion_items(goals.get("assertions"))
        for entry in as_list(item.get("memory_was_set"))
        if isinstance(as_dict(entry).get("value"), str)
    }


@NO_DECISIVE_ASSERTION.written_for(EVENT_ASSERTIONS)
def _mantle(case: CaseView, env: ReviewEnv) -> Iterator[Hit]:
    scenario = as_dict(case.data.get("scenario"))
    goals = as_dict(scenario.get("goals"))
    where = (
        at("scenario", "goals", "assertions")
        if "assertions" in goals
        else (at("scenario", "goals") if "goals" in scenario else at("scenario"))
    )
    items = assertion_items(goals.get("assertions"))
    keys = {key for item in items for key in item}
    name = f"{scenario.get('name', '')} {case.path.stem if case.path else ''}"
    skills = _skills_under_test(case, env, items)
    if (
        case.type == "happy_path"
        and not keys & _MANTLE_DONE
        and not _answer_case(env, goals)
        and not _clock_decides(env, goals)
    ):
        yield Hit(
            where,
            "happy path with no assertion that the task got done: it passes even if the "
            "agent never finishes",
            suggestion="assert `skill_completed`, the `tool_executed` that does the work, or "
            "the `memory_was_set` it leaves" + _skill_hint(skills),
        )
        return
    held = _held_back(env, skills)
    if _refuses(scenario, name) and held.denials and not _shows_held_back(items, held):
        names = ", ".join(sorted(held.denials))
        hint = (
            f"`memory_was_not_set` of {sorted(held.writes)[0]}"
            if held.writes
            else f"`bot_did_not_utter: {{utter_name: {sorted(held.successes)[0]}}}`"
            if held.successes
            else f"`bot_uttered: {{utter_name: {sorted(held.denials)[0]}}}`"
        )
        yield Hit(
            where,
            "refused-confirmation case with nothing that shows the gated tool was held back",
            suggestion=f"assert {hint} (the gated tool's denial response: {names})",
        )
        return
    if case.type == "escalation" and not _hands_off(env, items):
        yield Hit(
            where,
            "escalation case with no check that the hand-off happened",
            suggestion="assert `skill_activated` of the hand-off skill or the "
            "`tool_executed` that transfers",
        )
        return
    if not items:
        yield Hit(
            where,
            "no assertions: only the judge decides, and nothing checks the recorded events",
            suggestion="add one or two assertions on the non-negotiable facts",
            severity="warning",
        )


def _answer_case(env: ReviewEnv, goals: dict[str, Any]) -> bool:
    """A happy path whose skills only answer (`answers_only`: no tool, block or
    `complete_when`), or that plays a mode whose task is the answer (its criterion quotes
    that mode's paragraph, `SkillSignals.quoted_by`): Mantle records no event for the answer,
    so its activation and a criterion on the answer are all a case can hold."""
    defs = env.project.mantle if env.project is not None else None
    items = assertion_items(goals.get("assertions"))
    started = {
        as_dict(item.get("skill_activated")).get("skill_id")
        for item in items
        if "skill_activated" in item
    }
    criteria = [c for c in as_list(goals.get("criteria")) if isinstance(c, str)]
    project = env.project
    if project is None or defs is None or not started or not criteria:
        return False

    def answers(skill: str) -> bool:
        if answers_only(defs.skills[skill], defs.tools_for(skill)):
            return True
        return skill_signals(project, skill).quoted_by(criteria)

    return all(isinstance(s, str) and s in defs.skills and answers(s) for s in started)


def _clock_decides(env: ReviewEnv, goals: dict[str, Any]) -> bool:
    """A happy path whose activated skill does its work only in a window of time its tool
    checks on the run's clock ("During business hours … transfer the call"), with a
    criterion quoting that sentence and its other side (`quoted_windows`): which side a
    run falls on nothing in the case pins, so no assertion on the work holds on both, and
    the criterion is what judges it."""
    project = env.project
    if project is None or project.mantle is None:
        return False
    items = assertion_items(goals.get("assertions"))
    started = {
        as_dict(item.get("skill_activated")).get("skill_id")
        for item in items
        if "skill_activated" in item
    }
    criteria = [c for c in as_list(goals.get("criteria")) if isinstance(c, str)]
    judged = {skill for skill, _name, _call in quoted_windows(project, criteria)}
    return bool(started) and started <= judged


def _skills_under_test(case: CaseView, env: ReviewEnv, items: list[dict[str, Any]]) -> set[str]:
    skills = {
        as_dict(body).get("skill_id")
        for item in items
        for key, body in item.items()
        if key.startswith(("skill_", "ordered_block_", "tool_executed"))
    }
    if case.source:
        skills.add(case.source)
    return {s for s in skills if isinstance(s, str)}


def _skill_hint(skills: set[str]) -> str:
    return f" (e.g. `skill_completed: {{skill_id: {sorted(skills)[0]}}}`)" if skills else ""


@dataclass(frozen=True)
class _Held:
    """What shows a gated tool was held back after a decline: the gate's denial response
    (said only when the agent called the tool: one that asks in its own words first takes
    the decline there), and what every correct agent leaves out either way, the tool's
    `on_success` response and the memory its code writes."""

    denials: frozenset[str] = frozenset()
    successes: frozenset[str] = frozenset()
    writes: frozenset[str] = frozenset()


def _held_back(env: ReviewEnv, skills: set[str]) -> _Held:
    project = env.project
    defs = project.mantle if project is not None else None
    if project is None or defs is None:
        return _Held()
    denials: set[str] = set()
    successes: set[str] = set()
    writes: set[str] = set()
    for skill_id in skills or set(defs.skills):
        skill = defs.skills.get(skill_id)
        for tool, constraint in skill.tool_constraints.items() if skill else []:
            confirmation = constraint.requires_confirmation
            if confirmation is None or not confirmation.utter_on_user_denial:
                continue
            denials.add(confirmation.utter_on_user_denial)
            if constraint.on_success:
                successes.add(constraint.on_success)
            tool_def = defs.tools_for(skill_id).get(tool)
            if tool_def is not None:
                writes |= set(tool_keys(project, tool_def, skill_id))
    return _Held(frozenset(denials), frozenset(successes), frozenset(writes))


def _shows_held_back(items: list[dict[str, Any]], held: _Held) -> bool:
    for item in items:
        said = as_dict(item.get("bot_uttered")).get("utter_name")
        unsaid = as_dict(item.get("bot_did_not_utter")).get("utter_name")
        unset = {as_dict(i).get("name") for i in as_list(item.get("memory_was_not_set"))}
        if said in held.denials or unsaid in held.successes or unset & held.writes:
            return True
    return False


def _hands_off(env: ReviewEnv, items: list[dict[str, Any]]) -> bool:
    defs = env.project.mantle if env.project is not None else None
    handoff = {s.id for s in defs.skills.values() if s.is_handoff} if defs else set()
    for item in items:
        for key, body in item.items():
            if key == "tool_executed":
                return True
            if key.startswith(("skill_", "ordered_block_")):
                skill = as_dict(body).get("skill_id")
                if not handoff or skill in handoff:
                    return True
    return False


# --- Anychat -------------------------------------------------------------------------------


@NO_DECISIVE_ASSERTION.written_for(END_STATE_CHECKS)
def _anychat(case: CaseView, env: ReviewEnv) -> Iterator[Hit]:
    expect = as_dict(case.data.get("expect"))
    # `outcomes: []` is a real check (nothing was recorded); only absent/null ones are not.
    raw = as_dict(expect.get("checks"))
    checks = {k for k, v in raw.items() if v is not None}
    if raw.get("activePlaybookAtEnd") not in (None, case.source):
        checks.add("handoff")  # ending in another playbook is what a hand-off case shows
    defs = env.project.anychat if env.project is not None else None
    playbook = defs.playbooks.get(case.source) if defs and case.source else None
    own_tools = set(playbook.tools) if playbook is not None else set()
    if own_tools & {t for t in as_list(raw.get("toolsNotCalled")) if isinstance(t, str)}:
        checks.add("withheld")  # the playbook's own work was held back, on purpose
    where = (
        at("expect", "checks")
        if "checks" in expect
        else (at("expect") if "expect" in case.data else "")
    )
    booking = _is_booking(case, playbook)
    if booking and not checks & (_BOOKING_STATE | _NEGATIVE_STATE):
        yield Hit(
            where,
            "booking case with no check that the appointment exists: it passes on a "
            "friendly reply alone",
            suggestion='check `appointmentCreated: true` and `outcomes: ["booked"]`',
        )
        return
    if (
        playbook is not None
        and playbook.outcomes
        and not playbook.default
        and not (checks & (_ANYCHAT_STATE | _NEGATIVE_STATE))
    ):
        outcomes = ", ".join(playbook.outcomes)
        yield Hit(
            where,
            f"nothing checks what the {playbook.id} playbook changed: no outcomes, "
            "appointments, tools or Person fields",
            suggestion=f"check `outcomes` ({outcomes}) or the tool that does the work "
            "(`toolsCalled`)",
        )
        return
    if not checks:
        yield Hit(
            where,
            "no deterministic checks: only the judge decides",
            suggestion="add checks on the end state (outcomes, toolsCalled, personFields, "
            "activePlaybookAtEnd)",
            severity="warning",
        )


def _is_booking(case: CaseView, playbook: Any) -> bool:
    if playbook is not None:
        return "booked" in playbook.outcomes or any(t.startswith("book") for t in playbook.tools)
    text = " ".join(
        [case.title, *[t for t in as_list(case.data.get("tags")) if isinstance(t, str)]]
    )
    return bool(BOOKING.search(text))


# --- base44 --------------------------------------------------------------------------------


@NO_DECISIVE_ASSERTION.written_for(WORKSPACE_CHECKS)
def _base44(case: CaseView, env: ReviewEnv) -> Iterator[Hit]:
    checks = [as_dict(c) for c in as_list(case.data.get("checks"))]
    prompt = case.data.get("prompt")
    where = at("checks") if "checks" in case.data else ""
    if not checks and not as_list(case.data.get("expectedSkills")):
        yield Hit(
            where,
            "no checks and no expected skills: nothing can fail",
            suggestion="add file checks on what the prompt asks for",
        )
        return
    if not isinstance(prompt, str) or not (_WRITES.search(prompt) and _FILE_PATH.search(prompt)):
        return
    has_file_check = any(
        c.get("type") in _FILE_CHECKS
        or (c.get("type") in _CONFIG_CHECKS and c.get("target") == "file")
        for c in checks
    )
    if not has_file_check:
        paths = sorted(set(_FILE_PATH.findall(prompt)))[:3]
        yield Hit(
            where,
            "the prompt asks for files but no check looks at a file: only the answer text "
            "is checked",
            suggestion="add `file-exists` and `file-content` checks on " + ", ".join(paths),
        )


__all__: list[str] = []
