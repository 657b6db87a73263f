"""What the user of a hand-off case knows of their own matter: why they want a person, and the
references the hand-off's summary is to carry.

A hand-off skill that writes "a two-line summary of what happened so far (flight numbers,
what was tried)" and sets a topic from what the user needs gets nothing from a user whose
only fact is the label "topic: medical": a correct agent asks what happened, and which
flight, and the simulated user makes both up. So the user has a situation of the chosen
topic (`evalcore.testdata.situation_for`: a refund they want on their own booking, a
medical need at the airport; where the case chose only when it is needed, a request of the
skill's own kind, `reason_for`), the reference of their own record (its leading key) under the
name a tool of the project gives it (`pnr`: "Booking reference"), and the items of their
record the summary names by their codes (`flight numbers`: the flights on their booking).
"""

from __future__ import annotations

import random
import re
from collections.abc import Mapping
from typing import Any

from evalcore.definitions import MantleDefinitions, Skill
from evalcore.lexicon.en.instruction_words import SUMMARY as _SUMMARY
from evalcore.testdata import Caller, reason_for, situation_for

from ._mantle_identity import label_of

#: A code a record lists items by (`SK0460`): letters and digits, no spaces.
_CODE = re.compile(r"(?=[A-Z0-9-]*[A-Z])(?=[A-Z0-9-]*\d)[A-Z0-9-]{3,}")
#: The label of the user's matter (what they want a person for): a details-up-front case
#: says it in its first message, as the request the details go with.
NEED = "what you need a person for"


def handoff_facts(
    defs: MantleDefinitions,
    skill: Skill,
    caller: Caller,
    memory: Mapping[str, Any],
    rng: random.Random,
) -> list[tuple[str, str]]:
    """(label, value) for the user of a case of hand-off `skill` (see module doc); none for
    a skill that writes no summary. `rng`: the case's, for a request of the skill's kind
    where no topic says the situation."""
    body = skill.body or ""
    said = " ".join(body.lower().split())
    words = set(re.findall(r"[a-z]+", said))
    if not skill.is_handoff or not _SUMMARY & words:
        return []
    out: list[tuple[str, str]] = []
    chosen = [
        (f, str(memory[f.qualified]))
        for f in skill.memory.values()
        if f.type == "categorical" and isinstance(memory.get(f.qualified), str)
    ]
    situation = next((s for s in (situation_for(v) for _, v in chosen) if s), None)
    # a topic chosen (what they need a person for) is the situation's kind, even where no
    # line fits it; with only a time chosen (when it is needed), the skill's own kind
    timed = all((f.description or "").lower().startswith("when") for f, _ in chosen)
    if situation is None and timed:
        situation = reason_for(f"{skill.description or ''} {body}", rng)
    if situation:
        out.append((NEED, situation))
    record = caller.record or {}
    key, value = next(iter(record.items()), (None, None))  # a record's own id leads it
    seeded = {f.name for f in defs.memory_names().values() if f.seed}
    # a seeded id is the session's (the customer the channel knows), never the user's to say
    described = _parameter(defs, key) if key and key not in seeded else None
    if described is not None and isinstance(value, str) and value.strip():
        out.append((label_of(key, described), value))
    for value in (caller.within or {}).values():
        if not isinstance(value, list):
            continue
        for name in sorted({k for item in value if isinstance(item, dict) for k in item}):
            items = [str(i[name]) for i in value if isinstance(i, dict) and i.get(name)]
            named = {name, f"{name}s"} & words
            if named and items and all(_CODE.fullmatch(i) for i in items):
                label = f"{name} numbers" if f"{name} number" in said else f"{name}s"
                out.append((label, ", ".join(dict.fromkeys(items))))
    return out


def _parameter(defs: MantleDefinitions, name: str) -> str | None:
    """The description of a tool parameter of the project named `name` (`pnr`), where one
    is described; None where no tool takes it."""
    for skill in defs.skills:
        for tool in defs.tools_for(skill).values():
            param = tool.parameter(name)
            if param is not None and param.description:
                return param.description
    return None


__all__ = ["NEED", "handoff_facts"]
