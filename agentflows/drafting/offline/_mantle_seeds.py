"""What a case starts with: the channel context `setup.initial_slots` seeds.

Two kinds, both project fields marked `seed: true` (the only ones that reliably reach
memory, reference §2): the caller's phone and language, and the fields a skill's
`precondition` reads, set so that it holds (the runtime routes to no skill whose
precondition is false; `evalcore.definitions._preconditions`). Never a field the scenario
tests.
"""

from __future__ import annotations

from typing import Any

from evalcore.definitions import Project
from evalcore.definitions._preconditions import opening_seeds

from ...planning import Behavior
from ...planning._mantle_vocab import channel_fields, is_caller_phone
from ._mantle_testdata import Customer


def seeds_for(project: Project, customer: Customer) -> dict[str, Any]:
    """Channel context the run starts with: the caller's phone and language only."""
    assert project.mantle is not None
    out: dict[str, Any] = {}
    for field_def in channel_fields(project.mantle):
        name = field_def.name.lower()
        if is_caller_phone(field_def):
            out[field_def.qualified] = customer.phone
        elif "language" in name or "locale" in name:
            out[field_def.qualified] = "en"
    return out


def precondition_seeds(project: Project, behavior: Behavior) -> dict[str, Any]:
    """Channel context that opens the skills the case talks to: the seed fields their
    `precondition` reads, set so it holds (the runtime routes to no other; see
    `evalcore.definitions._preconditions`)."""
    skills = [behavior.source]
    for kind in ("digression", "escalation"):
        spec = behavior.facts.get(kind)
        if isinstance(spec, dict) and spec.get("skill"):
            skills.append(str(spec["skill"]))
    out: dict[str, Any] = {}
    for skill_id in skills:
        out.update(opening_seeds(project, skill_id) or {})
    return out


__all__ = ["precondition_seeds", "seeds_for"]
