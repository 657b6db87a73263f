"""What the skill says to do on the branch a case takes, as the criterion of a case that only
answers.

"if: session.door_access.request == "lockout" / During office hours (Mon-Sat 9-6) the
leasing office can let them in with ID. After hours, the on-call lockout service costs $75."
The right answer there is a referral; a criterion that the agent "answers instead of
deflecting" could fail the agent that gives it. The paragraph itself is what a correct
agent says, less the sentences that hand over to a skill or call a tool the path does not
take ("If it is below freezing …, go to @skill.emergency_line"). Where each sentence left
opens on the circumstance it holds in ("During office hours …", "After hours, …"), the
criterion asks for whichever applies, in its own words: a judge reading the pasted
paragraph could demand both.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from evalcore.definitions import Skill
from evalcore.definitions.conditions import evaluate
from evalcore.definitions.skill_model import sentences
from evalcore.lexicon.en.skill_prose import CIRCUMSTANCE_OPENER

from ._mantle_condition_words import condition_words

#: The longest paragraph a criterion quotes (a longer one says too much for one judgement).
_LONGEST = 240


def _by_value(condition: str | None) -> bool:
    """A branch the case picks by a value (`request == "lockout"`), not one that waits for
    a field still empty (`not bill_month`), whose paragraph asks rather than answers."""
    if not condition or "!=" in condition or "==" not in condition:
        return False
    return "not" not in condition.replace("(", " ").split()


def branch_says(skill: Skill, memory: Mapping[str, Any], taken: Iterable[str]) -> str | None:
    """`When the request is lockout, the agent does what the skill says: "…"` for the first
    `if:` paragraph picked by a value the path's memory meets, its sentences naming a skill
    or tool not in `taken` left out; None where there is none, nothing is left, or it is too
    long."""
    taken = set(taken)
    by_paragraph: dict[int, list[str]] = {}
    conditions: dict[int, str] = {}
    for sentence in sentences(skill.body):
        if not _by_value(sentence.condition) or not evaluate(sentence.condition, memory):
            continue
        named = [
            w.split(".", 1)[1].strip(".,;:()`'\"")
            for w in sentence.text.split()
            if w.startswith(("@skill.", "@tool."))
        ]
        if any(name not in taken for name in named):
            continue
        by_paragraph.setdefault(sentence.paragraph, []).append(sentence.text)
        conditions[sentence.paragraph] = sentence.condition
    for index, kept in by_paragraph.items():
        text = " ".join(kept)
        said = condition_words(conditions[index])
        if said and len(text) <= _LONGEST:
            options = _alternatives(kept)
            if options:
                return f"When {said}, the agent tells the customer whichever applies: {options}"
            return f'When {said}, the agent does what the skill says: "{text}"'
    return None


def _alternatives(kept: list[str]) -> str | None:
    """The paragraph's sentences as the one check they make where each opens on the
    circumstance it holds in ("During office hours … After hours, …"): one applies at a
    time, which the case does not fix, so the agent gives the one that does, not all."""
    if len(kept) < 2 or not all(CIRCUMSTANCE_OPENER.search(s) for s in kept):
        return None
    parts = [s.strip().rstrip(".") for s in kept]
    return ", or ".join(p[:1].lower() + p[1:] for p in parts)


__all__ = ["branch_says"]
