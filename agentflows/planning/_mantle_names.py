"""A skill's name as what a person asks for: "Replace a card", "File Claim" -> `want to
replace a card`, `want to file a claim` (`name_intent`); a name that is a noun compound
("Order status", "Rent and payments") is no request. `VERBS` are the verbs a request starts
with, which the planner and the offline drafter both read (declared in
`evalcore/lexicon/en/skill_name_words.py`)."""

from __future__ import annotations

from evalcore.definitions import Skill
from evalcore.lexicon.en.skill_name_words import MASS_NOUNS as _MASS
from evalcore.lexicon.en.skill_name_words import NAME_DETERMINERS as _DETERMINERS
from evalcore.lexicon.en.skill_name_words import NAME_PREPOSITIONS as _PREPOSITIONS
from evalcore.lexicon.en.skill_name_words import NOUN_HEADS as _NOUN_HEADS
from evalcore.lexicon.en.skill_name_words import POSSESSED as _POSSESSED
from evalcore.lexicon.en.skill_name_words import REQUEST_VERBS as VERBS


def _verb_phrase(words: list[str]) -> bool:
    """`Replace a card`, `File Claim`: a verb and its object; not `Order status`, `Rent and
    payments` (a noun compound that starts with a verb-like word)."""
    if not words or words[0].lower() not in VERBS:
        return False
    rest = [w.lower() for w in words[1:]]
    return not ("and" in rest or (rest and rest[-1] in _NOUN_HEADS))


def _with_object(verb: str, rest: list[str]) -> str:
    words = [w if w.isupper() and len(w) > 1 else w.lower() for w in rest]
    if words and words[0] not in _DETERMINERS | _PREPOSITIONS:
        noun = words[-1].strip(".,")
        if noun in _POSSESSED or words[0] in _POSSESSED:
            words.insert(0, "your")
        elif not noun.endswith("s") and noun not in _MASS:
            words.insert(0, "an" if words[0][:1] in "aeiou" else "a")
    return " ".join([verb, *words])


def name_intent(skill: Skill) -> str | None:
    """`want to replace a card` from a name that is a verb phrase ("Replace a card", "File
    Claim"), else None."""
    name = (skill.name or "").strip()
    words = name.replace("_", " ").split()
    if "_" not in name and _verb_phrase(words):
        return "want to " + _with_object(words[0].lower(), words[1:])
    return None


__all__ = ["VERBS", "name_intent"]
