"""A yes/no offer a step's instructions ask in passing, answered so the case keeps its path.

"if: trip_type == "domestic" / Only ask whether they want to fly out the evening before
when arrive_by is before 10:00." No field holds the answer and the walk does not stop for
it, so a case whose user has no answer leaves the simulator to invent one, and a "yes"
moves the trip a day (the flights the case searches for no longer match). The user
declines: the extra step is not what the case is about. The question comes only under its
own `when <field> is before|after <time>`: where the case's time for that field lies on the
other side, the agent never asks, and no line is written.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from evalcore.definitions import Skill

from ._mantle_caller_fit import branch_prose
from ._mantle_facts import DECLINED, asked_clause, second_person

#: How the question opens: a yes/no offer to the user.
_OFFER = "whether they want to "
#: How its own condition opens, and the comparisons it may make.
_WHEN = " when "
_SIDES = {"before": -1, "after": 1}


def _time(said: str) -> datetime | None:
    """`9:30 am`, `09:30`, `10:00` or `10` as a time of day; None for anything else."""
    for shape in ("%I:%M %p", "%H:%M", "%H"):  # "10:00" may come cut at its colon
        try:
            return datetime.strptime(said.strip().upper(), shape)
        except ValueError:
            continue
    return None


def _asked(condition: str, skill: Skill, told: dict[str, Any]) -> bool:
    """Whether `<field> is before|after <time>` holds for the case's time of that field (a
    condition of another shape, or a field the case has no time for: asked, to be safe)."""
    words = condition.rstrip(".").split()
    if len(words) != 4 or words[1] != "is" or words[2] not in _SIDES:
        return True
    said = told.get(f"{skill.id}.{words[0]}")
    ours, limit = _time(str(said or "")), _time(words[3])
    if ours is None or limit is None:
        return True
    return (ours > limit) - (ours < limit) == _SIDES[words[2]]


def step_offers(
    skill: Skill, memory: dict[str, Any], told: dict[str, Any]
) -> list[tuple[str, str]]:
    """(label, answer) for each yes/no offer the instructions of `skill`'s blocks ask on the
    path (see the module's doc); `told`: the case's values by qualified key, as said."""
    out: list[tuple[str, str]] = []
    steps = [
        " ".join(str(step.target).split())
        for block in skill.blocks.values()
        for step in block.steps
        if step.kind == "instructions" and isinstance(step.target, str)
    ]
    on_path = set(branch_prose(skill, memory))
    for text in steps:
        for sentence in (s for s in on_path if " ".join(s.split()) in text):
            clause = asked_clause(sentence)
            if clause is None or not clause.startswith(_OFFER) or " set " in f" {sentence} ":
                continue
            offer, _, condition = clause.partition(_WHEN)
            if condition and not _asked(condition, skill, told):
                continue
            label = second_person(offer.strip())
            if label not in (o[0] for o in out):
                out.append((label, DECLINED))
    return out


__all__ = ["step_offers"]
