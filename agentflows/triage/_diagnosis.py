"""What a triage rule concludes, and the evidence items every rule builds the same way."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any, Literal

from ._definitions import Subject, definition_file
from ._facts import Facts, FailedCheck
from ._ledger import Ev

Bucket = Literal["Skill", "Instruction", "Scenario", "Tool"]
BUCKETS: tuple[Bucket, ...] = ("Skill", "Instruction", "Scenario", "Tool")


@dataclass(frozen=True)
class Evidence:
    """One thing a diagnosis rests on, anchored to a turn when it has one."""

    kind: str
    """assertion | criterion | event | transcript | definition | case | model"""
    text: str
    turn: int | None = None

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "turn": self.turn, "text": self.text}


@dataclass
class Diagnosis:
    """One failed run's verdict: bucket, the turn that broke, why, and what to change."""

    bucket: Bucket
    turn: int | None
    rule: str
    evidence: list[Evidence]
    fix: str
    notes: list[Evidence] = field(default_factory=list)
    """Further failed checks, shown after the evidence the rule rests on."""
    cause: tuple[str, ...] = ()
    """What the runs that share this root cause have in common (the rule and its subject:
    the tool, the skills routed between, the case); `_causes` groups runs by it."""
    title: str = ""
    """The root cause in a few words (`card_replace runs place_replacement_order without
    asking utter_confirm_order`)."""


def check_item(check: FailedCheck) -> Evidence:
    """Numbered as `report` and `--compare` number it: assertion 1 is `assertions[0]`."""
    r = check.result
    return Evidence("assertion", f"assertion {r.index + 1} {r.type} failed: {r.detail}", check.turn)


def criterion_item(facts: Facts, number: int) -> Evidence:
    c = facts.criteria[number]
    return Evidence(
        "criterion",
        f"criterion {c.result.index} “{c.result.text}” {c.result.verdict}: {c.result.reason}",
        c.turn,
    )


def check_evidence(facts: Facts) -> list[Evidence]:
    return [check_item(c) for c in facts.checks] + [
        criterion_item(facts, n) for n in range(len(facts.criteria))
    ]


def event_item(ev: Ev) -> Evidence:
    return Evidence("event", f"{ev.where()} {ev.describe()}", ev.turn)


def said(facts: Facts, turn: int | None) -> str:
    """The user's words at `turn`, quoted, so a fix shows what the agent was answering."""
    text = facts.record.user_text(turn) if turn is not None else None
    return f" (“{' '.join(text.split())}”)" if text else ""


def defined_at(facts: Facts, subject: Subject) -> str:
    found = definition_file(facts.case.project, subject)
    return f" ({found})" if found else ""


def checks_about(facts: Facts, kind: str, name: str) -> list[FailedCheck]:
    """Failed checks about a subject (by spec, or a tool named in the engine's detail)."""
    return [
        c
        for c in facts.checks
        if any(s.kind == kind and s.name == name for s in c.subjects)
        or (kind == "tool" and re.search(rf"\b{re.escape(name)}\b", c.result.detail))
    ]


__all__ = [
    "BUCKETS",
    "Bucket",
    "Diagnosis",
    "Evidence",
    "check_evidence",
    "check_item",
    "checks_about",
    "criterion_item",
    "defined_at",
    "event_item",
    "said",
]
