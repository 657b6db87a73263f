"""What the skill does because a flag an aside case answers yes to holds.

A sentence "If they ask to speak to someone, or the loss involves an injury, offer
@skill.x after the claim is filed" is situational and compound, so no case gets it as a
rule; but in the case where the caller answers yes to `injuries_reported`, one of its
alternatives holds by the case's own facts, and the act is what every correct agent does
there. The alternative must name the flag (a word of its name, `injur…`), never another
field the path does not fix.
"""

from __future__ import annotations

import re

from evalcore.definitions import Skill
from evalcore.definitions.skill_model import sentences
from evalcore.lexicon.en.instruction_words import CONDITION_OPENS as _OPENS
from evalcore.lexicon.notation.mantle_references import SKILL_NAME as _REF

from ._direction import value_words
from ._mantle_criteria import sentence_rule

#: Where a condition lists alternatives ("..., or the loss involves an injury").
_ALTERNATIVES = re.compile(r",?\s+or\s+|,\s+")
#: How much of a flag's word (four letters or more) names it in prose ("injur" of
#: `injuries`, "hurt").
_STEM = 5


def _stems(flag: str) -> set[str]:
    name = flag.rsplit(".", 1)[-1]
    return {w[:_STEM] for w in name.split("_") if len(w) >= 4}


def _names(alternative: str, stems: set[str]) -> bool:
    words = re.findall(r"[a-z]+", alternative.lower())
    return any(w.startswith(s) for w in words for s in stems)


def flag_offer(skill: Skill, flag: str | None) -> str | None:
    """The criterion of the first unconditional sentence whose condition has an alternative
    naming `flag` (a yes/no field the case answers yes to), said to hold because it does."""
    stems = _stems(flag or "")
    if not stems:
        return None
    for sentence in sentences(skill.body or ""):
        parts = sentence.text.rstrip(".").split(", ")
        head = parts[0].split(" ", 1)
        if sentence.condition or len(parts) < 2 or head[0].lower() not in _OPENS:
            continue
        condition, act = ", ".join(parts[:-1]), parts[-1]
        condition = condition.split(" ", 1)[1] if " " in condition else ""
        held = [a for a in _ALTERNATIVES.split(condition) if _names(a, stems)]
        if not held:
            continue
        act = _REF.sub(lambda m: f"the {value_words(m.group(1))}", act)
        rule = sentence_rule(act[:1].upper() + act[1:] + ".")
        if rule is None or not rule.startswith("The agent "):
            continue
        return f"Since {held[0].strip()}, the agent {rule.removeprefix('The agent ')}"
    return None


__all__ = ["flag_offer"]
