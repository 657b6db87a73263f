"""Facts every triage rule shares: failed checks with their turns, activations, repeats.

Turn heuristic for a failed assertion (first that applies):

1. The forbidden thing happened: "sent X at turn N" (`bot_did_not_utter`), "set to V at
   turn N" (`memory_was_not_set`) → N.
2. A `sequencing` step is missing after step k, which matched at turn N (event I): the turn
   of the agent's first event after I, where the missing step should have come instead.
3. A near miss: "closest: <event> at turn N" (wrong arguments, wrong value) or "first at
   turn N" (it happened, but too early) → N.
4. The expected event never happened at all: the turn of the step before it in its ordered
   block (from the definitions), else the last turn the expected skill was active, else the
   last turn of the conversation.

For a failed criterion, the judge names the turn it rests on (`[Tn]`, prompts/run/judge.md).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field

from evalcore.lexicon.en.run_findings import AFTER_STEP, CLOSEST, HAPPENED, STEP_OF, WORD_TURN

from ._case import CaseContext
from ._definitions import Subject, previous_steps, subjects_from_detail, subjects_of
from ._ledger import ACTIVATIONS, TOOL_EVENTS, Ev
from ._records import CheckResult, CriterionResult, RunRecord

_HAPPENED = HAPPENED
_AFTER_STEP = AFTER_STEP
_CLOSEST = CLOSEST
_STEP_OF = STEP_OF
_JUDGE_TURN = re.compile(r"\[T(\d+)\]")
_WORD_TURN = WORD_TURN
_AGENT_SIDE = {"bot", "memory_set", "memory_cleared", *TOOL_EVENTS} | {
    "skill_activated",
    "skill_completed",
    "skill_cancelled",
    "skill_interrupted",
    "ordered_block_entered",
    "ordered_block_completed",
}


@dataclass(frozen=True)
class FailedCheck:
    """A failed assertion with what it is about and the turn it points at."""

    result: CheckResult
    subjects: list[Subject]
    turn: int | None
    how: str
    """Which heuristic found the turn: happened, after-step, closest, anchor, skill, last."""


@dataclass(frozen=True)
class FailedCriterion:
    result: CriterionResult
    turn: int | None


@dataclass
class Facts:
    record: RunRecord
    case: CaseContext
    expected_skills: list[str]
    checks: list[FailedCheck] = field(default_factory=list)
    criteria: list[FailedCriterion] = field(default_factory=list)

    @property
    def events(self) -> list[Ev]:
        return self.record.events

    def activations(self) -> list[Ev]:
        return [e for e in self.events if e.type in ACTIVATIONS and e.subject]

    def find(self, subject: Subject) -> list[Ev]:
        """Recorded events that did the subject (any arguments)."""
        if subject.kind == "tool":
            return [e for e in self.events if e.type in TOOL_EVENTS and e.subject == subject.name]
        if subject.kind == "utter":
            return [e for e in self.events if e.type == "bot" and e.subject == subject.name]
        if subject.kind == "memory":
            return [e for e in self.events if e.type == "memory_set" and e.subject == subject.name]
        if subject.kind == "skill":
            return [e for e in self.events if e.type in ACTIVATIONS and e.subject == subject.name]
        if subject.kind == "block":
            return [
                e
                for e in self.events
                if e.type.startswith("ordered_block_") and e.subject == subject.name
            ]
        return []

    def skill_turns(self, skill: str) -> list[int]:
        return [
            e.turn
            for e in self.events
            if e.skill == skill or (e.type in ACTIVATIONS and e.subject == skill)
        ]


def gather(record: RunRecord, case: CaseContext) -> Facts:
    facts = Facts(record=record, case=case, expected_skills=case.expected_skills(record))
    specs = case.assertions
    for check in record.assertions:
        if check.passed:
            continue
        spec = check.spec
        if spec is None and 0 <= check.index < len(specs):
            spec = specs[check.index]
        subjects = _subjects(check, spec)
        turn, how = _check_turn(facts, check, subjects)
        facts.checks.append(FailedCheck(check, subjects, turn, how))
    for criterion in record.criteria:
        # `unjudged` (no judge model, or the run errored first) is not a verdict.
        if not criterion.passed and criterion.verdict != "unjudged":
            facts.criteria.append(FailedCriterion(criterion, criterion_turn(criterion.reason)))
    return facts


def _subjects(check: CheckResult, spec: object) -> list[Subject]:
    found: list[Subject] = []
    if isinstance(spec, dict) and len(spec) == 1:
        ((kind, inner),) = spec.items()
        found = subjects_of(str(kind), inner)
        step = _STEP_OF.search(check.detail)
        if kind == "sequencing" and step and isinstance(inner, list):
            # Only the step that failed is what the check is about.
            number = int(step.group(1)) - 1
            item = inner[number] if 0 <= number < len(inner) else None
            if isinstance(item, dict) and len(item) == 1:
                ((step_kind, step_spec),) = item.items()
                found = subjects_of(str(step_kind), step_spec) or found
    return found or subjects_from_detail(check.detail)


def criterion_turn(reason: str) -> int | None:
    match = _JUDGE_TURN.search(reason) or _WORD_TURN.search(reason)
    return int(match.group(1)) if match else None


def _check_turn(
    facts: Facts, check: CheckResult, subjects: Sequence[Subject]
) -> tuple[int | None, str]:
    detail = check.detail
    if match := _HAPPENED.search(detail):
        return int(match.group(1)), "happened"
    if match := _AFTER_STEP.search(detail):
        after = int(match.group(2))
        nxt = next((e for e in facts.events if e.index > after and e.type in _AGENT_SIDE), None)
        return (nxt.turn if nxt else int(match.group(1))), "after-step"
    if match := _CLOSEST.search(detail):
        return int(match.group(1)), "closest"
    for subject in subjects:
        for anchor in previous_steps(facts.case.project, subject):
            hits = facts.find(anchor)
            if hits:
                return hits[-1].turn, "anchor"
    for subject in subjects:
        skill = subject.skill or next(iter(facts.expected_skills), None)
        turns = facts.skill_turns(skill) if skill else []
        if turns:
            return max(turns), "skill"
    return (facts.record.last_turn or None), "last"


__all__ = ["Facts", "FailedCheck", "FailedCriterion", "criterion_turn", "gather"]
