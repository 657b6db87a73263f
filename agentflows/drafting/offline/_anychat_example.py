"""Replaying a Playbook example as a case (docs/playbooks.md, "Examples").

The example's `user`, `chip`, `slot`, `confirm` and `system` turns become the case's turns, in
order (`agent`, `tool` and `handoff` turns are the agent's side and are not replayed). Its
`end` becomes the checks with the documented mapping, plus what the example shows outright:

| from the example | check |
|---|---|
| `end.activePlaybook`, `outcomes`, `personFields` | `activePlaybookAtEnd`, `outcomes`, ... |
| `end.appointmentCreated`, `activeAppointments` | the same-named check |
| `end.tools` | `toolsCalled` (each exactly once, the evaluator counts exactly) |
| an `agent` turn sending `ask.time` / `ask.choice` | `pickerShown: true` |
| a `chip` answered right after an agent turn with chips | `chipsOnAnyTurn` (the chip ids) |
| a final `system` turn | `noReplyTo` (the agent answers no platform event) |
| the last turn is the agent's | `finalReplyNonEmpty: true` |

Each `agent` line becomes a judge criterion: the reply should be in that spirit, never word
for word.
"""

from __future__ import annotations

from itertools import pairwise
from typing import Any

from evalcore.definitions import PlaybookExample

_REPLAYED = ("user", "chip", "slot", "confirm", "system")
_FALLBACK = {"chip": "Yes please", "slot": "The first one works", "confirm": "Yes"}


def replay_turns(example: PlaybookExample) -> list[str | dict[str, Any]]:
    turns: list[str | dict[str, Any]] = []
    for turn in example.turns:
        kind = next((k for k in _REPLAYED if k in turn), None)
        if kind is None:
            continue
        if kind == "user":
            turns.append(str(turn["user"]))
        elif kind == "system":
            turns.append({"system": turn["system"]})
        else:
            fallback = turn.get("fallback") or _fallback(kind, turn[kind])
            turns.append({kind: turn[kind], "fallback": str(fallback)})
    return turns


def _fallback(kind: str, value: Any) -> str:
    if kind == "confirm" and value is False:
        return "No"
    if kind == "slot" and isinstance(value, int) and value > 0:
        return f"Option {value + 1} please"
    return _FALLBACK[kind]


def example_checks(example: PlaybookExample) -> dict[str, Any]:
    end = example.end
    checks: dict[str, Any] = {}
    kinds = [next(iter(t), "") for t in example.turns]
    if kinds and kinds[-1] == "agent":
        checks["finalReplyNonEmpty"] = True
    parts = {p for t in example.turns if "agent" in t for p in t.get("parts") or []}
    if parts & {"ask.time", "ask.choice"}:
        checks["pickerShown"] = True
    if "appointmentCreated" in end:
        checks["appointmentCreated"] = bool(end["appointmentCreated"])
    if "activeAppointments" in end:
        checks["activeAppointments"] = int(end["activeAppointments"])
    if isinstance(end.get("outcomes"), list):
        # `outcomes: []` is the author saying nothing is recorded: a check, not an absence.
        checks["outcomes"] = [str(o) for o in end["outcomes"]]
    if end.get("activePlaybook"):
        checks["activePlaybookAtEnd"] = str(end["activePlaybook"])
    if end.get("personFields"):
        checks["personFields"] = dict(end["personFields"])
    chips = _answered_chips(example.turns)
    if chips:
        checks["chipsOnAnyTurn"] = chips
    if end.get("tools"):
        checks["toolsCalled"] = {str(t): 1 for t in end["tools"]}
    if kinds and kinds[-1] == "system":
        checks["noReplyTo"] = [example.turns[-1]["system"]]
    return checks


def _answered_chips(turns: list[dict[str, Any]]) -> list[str]:
    chips: list[str] = []
    for before, turn in pairwise(turns):
        if "chip" in turn and "chips" in (before.get("parts") or []):
            chips.append(str(turn["chip"]))
    return list(dict.fromkeys(chips))


def example_criteria(example: PlaybookExample) -> list[tuple[str, str]]:
    """One criterion per agent line, anchored to the person's turn it answers (a judge
    reading "at this point" cannot tell which reply is meant)."""
    out: list[tuple[str, str]] = []
    after = "At the start"
    for turn in example.turns:
        if "agent" not in turn:
            after = _after(turn) or after
            continue
        parts = [p for p in turn.get("parts") or [] if p != "text"]
        sends = f", with {', '.join(parts)}" if parts else ""
        said = " ".join(str(turn["agent"]).split())
        out.append(
            (
                f"example-reply-{len(out) + 1}",
                f"{after}, the agent replies in the spirit of “{said}” (not word for word){sends}.",
            )
        )
    return out[:10]


def _after(turn: dict[str, Any]) -> str | None:
    """`After the person writes “…”` for the person's side of a turn (None for a tool)."""
    if "user" in turn:
        return f"After the person writes “{' '.join(str(turn['user']).split())}”"
    if "chip" in turn:
        return f"After the person taps “{turn['chip']}”"
    if "slot" in turn:
        return "After the person picks a time"
    if "confirm" in turn:
        return "After the person answers " + ("yes" if turn["confirm"] else "no")
    if "system" in turn:
        return f"After the {turn['system']} event"
    return None


__all__ = ["example_checks", "example_criteria", "replay_turns"]
