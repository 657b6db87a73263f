"""Where a prose skill's own words tell the agent to complete it.

A skill without `complete_when` completes when the model calls Mantle's `complete` tool, which
the runtime records as `skill_completed`. Usually that is the model's judgement, so no case can
count on it; but where the prose says so unconditionally ("complete this skill immediately
after that confirmation line"), every correct agent completes it once that moment comes, and
the completion is instructed, like any other unconditional step.
"""

from __future__ import annotations

from dataclasses import dataclass

from ...lexicon.en.skill_prose_words import END_HEDGES as _HEDGES
from ...lexicon.en.skill_prose_words import POINTERS as _POINTERS
from ...lexicon.en.skill_prose_words import SKILL_ENDS as _ENDS
from .._model import Skill
from ._text import Sentence, sentences


@dataclass(frozen=True)
class Completion:
    sentence: Sentence
    """The instructing sentence (its line relative to the body's first line)."""
    moment: str | None
    """What the completion comes right after, as the sentence names it ("the confirmation
    line"), or None where it names no moment."""


def completion_instruction(skill: Skill) -> Completion | None:
    """The unconditional prose sentence telling the agent to complete this skill, or None
    (a skill with `complete_when` completes by it, not by prose)."""
    if skill.complete_when:
        return None
    for sentence in sentences(skill.body or ""):
        if sentence.condition:
            continue
        moment = completes_at(sentence.text)
        if moment is not None:
            return Completion(sentence, moment or None)
    return None


def completes_at(text: str) -> str | None:
    """For a sentence (or the part after its colon) that tells the agent to complete the
    skill, the moment it names after "after" ("" where none); None for any other sentence."""
    words = [w.strip(".,;:!?\"'`*").lower() for w in text.split(":")[-1].split()]
    for at, word in enumerate(words):
        if word in _ENDS and "skill" in words[at + 1 : at + 3]:
            if _HEDGES & set(words):  # "end the skill when they say goodbye": conditional
                return None
            rest = words[at + 3 :]
            if "after" not in rest:
                return ""
            moment = rest[rest.index("after") + 1 :]
            if moment and moment[0] in _POINTERS:
                moment = ["the", *moment[1:]]
            return " ".join(moment)
    return None


__all__ = ["Completion", "completes_at", "completion_instruction"]
