"""What a Mantle assertion can see of a run, and whether it could tell two runs apart.

`observed` lists what Mantle's assertions check of a run, in order; `difference` says what
an assertion could see differ between a correct run and a mutant's run of one conversation
(None: every assertion that holds on the correct run holds on the other). `casegen mutate`
reads both: a survivor with no mark on the runs that reach it (`_reasons`), a mutant with
no mark on any explored path (`_equivalence`).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from itertools import pairwise
from typing import Any


@dataclass
class Run:
    """A run's tracker events and the event index at which each user turn starts."""

    events: list[dict[str, Any]]
    turns: list[int] = field(default_factory=list)

    @classmethod
    def of(cls, events: Sequence[dict[str, Any]]) -> Run:
        """A runner's events, whose `user` events start the turns."""
        listed = list(events)
        return cls(listed, [i for i, e in enumerate(listed) if e.get("event") == "user"])


#: Whether a memory entry is one an assertion may name (None: every entry).
Declared = Callable[[str], bool] | None


def observed(events: Sequence[dict[str, Any]], declared: Declared = None) -> list[tuple[Any, ...]]:
    """What Mantle's assertions can check of a run, in order: skill and block lifecycle,
    memory writes with their values, tool calls (arguments, error, source) and the
    responses uttered by name (reference §2.1); a message no response names is none. With
    `declared`, only writes of entries a memory schema declares: an assertion naming
    another is an unknown memory name, and Rasa rejects such a write at runtime."""
    out: list[tuple[Any, ...]] = []
    for event in events:
        kind = event.get("event")
        if kind == "memory_set":
            if declared is None or declared(str(event.get("key"))):
                out.append((kind, event.get("key"), repr(event.get("value"))))
        elif kind == "tool_executed":
            arguments = json.dumps(event.get("arguments") or {}, sort_keys=True, default=repr)
            out.append((kind, event.get("tool_name"), arguments, event.get("is_error")))
        elif kind == "bot":
            # a message no response names is the agent's own wording: only `text_matches`
            # could name it, and no wording of it is one every correct agent says
            if name := (event.get("metadata") or {}).get("utter_action"):
                out.append((kind, name))
        elif isinstance(kind, str) and kind.startswith(("skill_", "ordered_block_")):
            out.append((kind, event.get("skill_id"), event.get("block_id"), event.get("step_id")))
    return out


def difference(original: Any, mutant: Any, declared: Declared = None) -> str | None:
    """What a Mantle assertion could see differ between two runs of one path (each a
    `Played`), or None when every assertion that holds on `original` holds on `mutant`
    (`declared`: the memory entries an assertion may name, as in `observed`)."""
    mine, theirs = observed(original.events, declared), observed(mutant.events, declared)
    missing = _unmatched(mine, theirs)
    if missing is not None:
        return f"only a correct run records {_say(missing)}"
    before = _last_writes(original.events, declared)
    after = _last_writes(mutant.events, declared)
    for key in sorted(set(after) - set(before)):
        return f"only the mutant writes {key} (memory_was_not_set)"
    for key in sorted(before):
        if repr(before[key]) != repr(after.get(key)):
            return f"{key} ends on another value (memory_was_not_set with a value)"
    extra = _uttered(mutant.events) - _uttered(original.events)
    if extra:
        return f"only the mutant utters {sorted(extra)[0]} (bot_did_not_utter)"
    mine_turns, their_turns = _calls(original), _calls(mutant)
    for index, calls in enumerate(mine_turns):
        theirs_now = their_turns[index] if index < len(their_turns) else []
        if _unmatched(calls, theirs_now) is not None:
            return f"turn {index} runs other tools (tools_within_one_turn)"
        if len(calls) >= 2 and len(theirs_now) > len(calls):
            return f"turn {index} runs an extra tool (tools_within_one_turn, no extra calls)"
    return None


def _unmatched(wanted: Sequence[Any], within: Sequence[Any]) -> Any:
    """The first item of `wanted` that `within` does not hold in order (earliest match,
    gaps allowed: as `sequencing` matches), or None."""
    at = 0
    for item in wanted:
        while at < len(within) and within[at] != item:
            at += 1
        if at == len(within):
            return item
        at += 1
    return None


def _last_writes(events: Sequence[dict[str, Any]], declared: Declared) -> dict[str, Any]:
    last: dict[str, Any] = {}
    for event in events:
        key = str(event.get("key"))
        if event.get("event") != "memory_set" or key == "session_started_metadata":
            continue
        if declared is None or declared(key):
            last[key] = event.get("value")
    return last


def _uttered(events: Sequence[dict[str, Any]]) -> set[str]:
    return {
        str(name)
        for e in events
        if e.get("event") == "bot" and (name := (e.get("metadata") or {}).get("utter_action"))
    }


def _calls(run: Any) -> list[list[tuple[Any, ...]]]:
    """The tool calls of each user turn (turn 0: before the first answer)."""
    bounds = [0, *run.turns, len(run.events)]
    return [
        [item for item in observed(run.events[a:b]) if item[0] == "tool_executed"]
        for a, b in pairwise(bounds)
    ]


def _say(item: tuple[Any, ...]) -> str:
    return " ".join(str(part) for part in item if part not in (None, "{}"))


__all__ = ["Run", "difference", "observed"]
