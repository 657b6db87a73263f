"""What the user does when the agent says an aside: take it in and carry on.

A skill's `utter: when:` rule says something beside its procedure when a circumstance
holds (an emergency warning once someone was hurt: "please hang up and call 911 first").
A simulated user who hears only that may end the conversation there, and nothing the case
asserts after it happens. The case about such an aside (the planner's `aside` behaviour,
whose user answers yes to the flag) tells the user, in a note, to take it in and go on,
quoting how it starts so a reader sees which line is meant. Asides other cases meet on
their way (a note that a balance may still change) need no such line.
"""

from __future__ import annotations

from evalcore.definitions import MantleDefinitions
from evalcore.definitions.conditions import condition_keys


def aside_notes(defs: MantleDefinitions, said: list[str], flag: str | None) -> list[str]:
    """A note per `utter: when:` response on `flag` (the aside case's) among `said` (the
    responses the case's walk says, in order)."""
    if not flag:
        return []
    asides = {
        r.response
        for skill in defs.skills.values()
        for r in skill.utter
        if r.when and flag in condition_keys(r.when)
    }
    notes: list[str] = []
    for name in dict.fromkeys(u for u in said if u in asides):
        response = defs.response(name)
        variants = list(response.variants) if response is not None else []
        default = next((v for v in variants if v.condition is None), None)
        text = (default or variants[0]).text if variants else None
        if not text:
            continue
        words = " ".join(text.replace('"', "'").split())
        first = words.split(". ")[0].rstrip(".")
        notes.append(
            f'When the agent says "{first}…", take it in and carry on with the conversation: '
            "say you can go on now."
        )
    return notes


__all__ = ["aside_notes"]
