"""A run laid out turn by turn, with each verdict at the turn it refers to.

Turns are numbered as the runner numbers them: turn 0 is everything before the first user
message, turn n the n-th user message and the agent's answer. An assertion's detail names
the events it matched or came closest to (`... at turn 5 (event 31)`), a judge reason names
the turn it rests on (`[T3]`); a verdict is placed at the last turn it names (the point by
which it was decided), and one that names no recorded turn is shown for the whole run.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from evalcore.judge import ledger_lines
from evalcore.lexicon.en.run_findings import TURN_REF
from evalcore.runner import RunRecord

_TURN_REF = TURN_REF
_LEDGER = re.compile(r"^\[T(\d+)\] (.*)$", re.DOTALL)


@dataclass(frozen=True)
class Verdict:
    """One assertion or criterion result, as the report shows it."""

    kind: str
    """`assertion` or `criterion`."""
    index: int
    label: str
    """The assertion type (`tool_executed`) or the criterion's text."""
    outcome: str
    """`pass`, `fail`, `inconclusive` or `unjudged`."""
    detail: str
    turns: tuple[int, ...] = ()
    """Every recorded turn the detail names."""

    @property
    def number(self) -> int:
        """As a person counts: assertion 1 is `goals.assertions[0]`; criteria are 1-based."""
        return self.index + 1 if self.kind == "assertion" else self.index


@dataclass
class Turn:
    number: int
    messages: list[tuple[str, str]] = field(default_factory=list)
    """(role, text) in the order said."""
    events: list[str] = field(default_factory=list)
    """Ledger lines of what the agent did in this turn."""
    verdicts: list[Verdict] = field(default_factory=list)


@dataclass
class Layout:
    turns: list[Turn]
    unplaced: list[Verdict]
    """Verdicts that name no recorded turn: about the run as a whole."""


def turn_refs(text: str, known: set[int]) -> tuple[int, ...]:
    """The recorded turns a detail or reason names, in ascending order."""
    found = {int(a or b) for a, b in _TURN_REF.findall(text or "")}
    return tuple(sorted(found & known))


def verdicts(record: RunRecord, known: set[int]) -> list[Verdict]:
    """The run's assertion and criterion results, assertions first."""
    out: list[Verdict] = []
    for position, item in enumerate(record.assertions):
        detail = str(item.get("detail") or "")
        out.append(
            Verdict(
                kind="assertion",
                index=_int(item.get("index"), position),
                label=str(item.get("type") or "assertion"),
                outcome="pass" if item.get("passed") is True else "fail",
                detail=detail,
                turns=turn_refs(detail, known),
            )
        )
    for criterion in record.criteria:
        out.append(
            Verdict(
                kind="criterion",
                index=criterion.index,
                label=criterion.criterion,
                outcome=criterion.verdict,
                detail=criterion.reason,
                turns=turn_refs(criterion.reason, known),
            )
        )
    return out


def layout(record: RunRecord) -> Layout:
    """The run's turns (messages, events, verdicts) and the verdicts placed at none."""
    turns: dict[int, Turn] = {}
    for utterance in record.transcript:
        turns.setdefault(utterance.turn, Turn(utterance.turn)).messages.append(
            (utterance.role, utterance.text)
        )
    for line in ledger_lines(record.events):
        match = _LEDGER.match(line)
        if match:
            number = int(match.group(1))
            turns.setdefault(number, Turn(number)).events.append(match.group(2))
    unplaced: list[Verdict] = []
    for verdict in verdicts(record, set(turns)):
        if verdict.turns:
            turns[verdict.turns[-1]].verdicts.append(verdict)
        else:
            unplaced.append(verdict)
    return Layout(turns=[turns[n] for n in sorted(turns)], unplaced=unplaced)


def _int(value: Any, default: int) -> int:
    return value if isinstance(value, int) and not isinstance(value, bool) else default


__all__ = ["Layout", "Turn", "Verdict", "layout", "turn_refs", "verdicts"]
