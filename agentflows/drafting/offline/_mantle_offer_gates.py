"""Offers the case's own values keep the agent from making: no answer is needed for them.

"If no refills are left, offer to ask the prescriber for a renewal with
@tool.request_prescriber_renewal", where the tool `requires` `refills_left == 0`: in a
case whose prescription has refills left, the renewal can never run, so the agent never
offers it, and a "no, thanks" among the user's facts answers a question nobody asks (a
reviewer reads it as a stray fact). An offer counts as blocked only where every key of its
call's `requires` (or of one of its `and`-joined parts) is known on the path and the
condition is false; an offer that may still come keeps its answer.
"""

from __future__ import annotations

from typing import Any

from evalcore.definitions import Skill
from evalcore.definitions.conditions import condition_keys, evaluate
from evalcore.definitions.skill_model import sentences

from ._mantle_facts import _offer_label, holds

#: How a sentence names a call: `@tool.request_prescriber_renewal`.
_TOOL = "@tool."


def _calls(text: str) -> list[str]:
    """The tools `text` names (`@tool.<name>`)."""
    return [
        "".join(c for c in part.split()[0] if c.isalnum() or c == "_") if part.split() else ""
        for part in text.split(_TOOL)[1:]
    ]


def _false(requires: str, known: dict[str, Any]) -> bool:
    """Whether `requires` is false on `known`: the whole of it where every key is known,
    else one of its `and`-joined parts that is (a claim number still to come beside a car
    that can be driven: the rental is barred all the same)."""
    text = " ".join(requires.split())
    parts = [text] if " or " in f" {text} " else text.split(" and ")
    for part in parts:
        keys = set(condition_keys(part))
        if keys and keys <= set(known) and not evaluate(part, known):
            return True
    return False


def blocked_offers(skill: Skill, memory: dict[str, Any]) -> frozenset[str]:
    """The offers on the path (as `offers` labels them) whose call's `requires` is false
    on the path's known values."""
    # a value the walk only knows is set (not what it is) decides nothing
    known = {k: v for k, v in memory.items() if isinstance(v, str | int | float | bool)}
    out: set[str] = set()
    for part in sentences(skill.body or ""):
        if part.condition and not holds(part.condition, memory):
            continue
        label = _offer_label(part.text)
        if label is None:
            continue
        for name in _calls(part.text):
            gate = skill.tool_constraints.get(name)
            requires = gate.requires if gate is not None else None
            if requires and _false(requires, known):
                out.add(label)
    return frozenset(out)


__all__ = ["blocked_offers"]
