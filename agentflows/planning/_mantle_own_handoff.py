"""The hand-off a skill names itself: a caller who lacks what it asks is offered a person.

"A caregiver calling for a parent or a child must give the patient's details … If they do
not know the patient's date of birth, we cannot go on; offer @skill.pharmacist_consult."
An escalation case that has the user ask for a person for no reason at the first question
is contrived where the skill says when a person is the way on: the case plays that reason,
at the question it is about, in the user's words ("I'm calling for my parent, and I don't
know their date of birth."), and its user is the one the paragraph names (calling for
someone).
"""

from __future__ import annotations

from dataclasses import dataclass

from evalcore.definitions import Skill
from evalcore.lexicon.en.skill_prose import CALLING_FOR, NOT_KNOWN

from ._mantle_walk import Ask


@dataclass(frozen=True)
class OwnReason:
    at: int
    """The index of the ask whose field the user does not know."""
    thing: str
    """What they do not know, as the prose says it (`patient's date of birth`)."""
    whom: str | None
    """Whom the caller calls for (`parent`), where the paragraph names one."""


def own_reason(skill: Skill, handoff: str, asks: list[Ask], own: list[int]) -> OwnReason | None:
    """The skill's own reason to offer `handoff` that one of its asks (`own`, indexes into
    `asks`) is about, else None."""
    token = f"@skill.{handoff}"
    for paragraph in (skill.body or "").split("\n\n"):
        text = " ".join(paragraph.split())
        for found in NOT_KNOWN.finditer(text):
            if token not in text[found.end() :].split(". ", 1)[0]:
                continue  # the sentence offers no such hand-off
            thing = found["thing"].strip()
            words = f" {thing.lower()} "
            for at in own:
                field = (asks[at].field or "").rsplit(".", 1)[-1]
                if field and f" {field.replace('_', ' ')} " in words:
                    whom = CALLING_FOR.search(text)
                    if whom is None and "'s " in thing:
                        return None  # someone else's, and no word of whose
                    return OwnReason(at, thing, whom["whom"].lower() if whom else None)
    return None


def reason_said(reason: OwnReason) -> str:
    """That they do not know the thing, in the user's words (someone else's where they
    call for them): also their answer where the hand-off asks why they want a person."""
    head, _, rest = reason.thing.partition("'s ")
    thing = rest if rest and " " not in head else reason.thing
    if reason.whom:
        return f"I'm calling for my {reason.whom}, and I don't know their {thing}."
    return f"I don't know my {thing}."


def reason_line(reason: OwnReason, opening: str) -> str:
    """The user's line: the hand-off skill's opening ("Can I talk to a pharmacist?"), then
    the reason (`reason_said`): the request for a person first, as an interruption opens."""
    return f"Actually, {opening[:1].lower()}{opening[1:]} {reason_said(reason)}"


__all__ = ["OwnReason", "own_reason", "reason_line", "reason_said"]
