"""The branch the run's clock decides, as a criterion that allows either side.

"if: session.project.channel == "phone" / During business hours (Monday to Friday, 8am to
8pm Eastern) transfer the call with @tool.transfer_to_queue. Outside those hours, offer a
callback instead." The tool checks the real clock itself (`CodeFacts.clock`: it answers
"outside_business_hours"), so which sentence applies depends on when the case runs, which
nothing in the case fixes. Walks leave such a call out (`CallSite.optional`), so no case
asserts it or what it writes; the case asserts what holds on both sides, and this criterion
asks for whichever side the run falls on. The case's `# run date:` note says so
(`evalcore.dialects.mantle.run_date_notes`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from evalcore.definitions import Project, Skill
from evalcore.definitions.conditions import evaluate
from evalcore.definitions.skill_model import clock_window_calls, sentences
from evalcore.lexicon.en.skill_prose import CIRCUMSTANCE_OPENER

from ._mantle_condition_words import condition_words
from ._mantle_facts import offers

#: The longest text of the alternatives a criterion quotes.
_LONGEST = 280


def clock_branch(project: Project, skill: Skill, memory: Mapping[str, Any]) -> str | None:
    """`When the channel is phone, the agent does what the skill says for the time the case
    runs, …: "During business hours …" or "Outside those hours, …"` for the first call on
    the path (its `if:` condition met by `memory`) made only in a window of time its tool
    checks against the run's clock; None where there is none or its paragraph says no
    other side."""
    for _name, call in clock_window_calls(project, skill.id):
        if call.condition and not evaluate(call.condition, dict(memory)):
            continue
        kept = _alternatives(skill, call.sentence or "")
        if not kept:
            continue
        said = condition_words(call.condition) if call.condition else None
        if call.condition and not said:
            continue
        lead = f"When {said}, the agent" if said else "The agent"
        options = " or ".join(f'"{_plain(s)}"' for s in kept)
        return (
            f"{lead} does what the skill says for the time the case runs, which nothing in "
            f"the case pins (either side is correct): {options}"
        )
    return None


def clock_offers(project: Project, skill: Skill, memory: Mapping[str, Any]) -> list[str]:
    """The offers (as `offers` labels them: "whether you want a callback instead") that the
    other side of a clock window on the path makes ("Outside those hours, offer a callback
    instead."): the user answers one and the conversation is over on that side, so the
    case's stop says so (else a run outside the window never reaches the stop)."""
    out: list[str] = []
    labels = offers(skill, dict(memory))
    for _name, call in clock_window_calls(project, skill.id):
        if call.condition and not evaluate(call.condition, dict(memory)):
            continue
        for other in _alternatives(skill, call.sentence or "")[1:]:
            said = other.lower()
            out += [
                label
                for label in labels
                if label.removeprefix("whether you want ").lower() in said and label not in out
            ]
    return out


def _alternatives(skill: Skill, sentence: str) -> list[str]:
    """The call's sentence and the ones after it in its paragraph that each open on the
    circumstance they hold in ("During business hours …", "Outside those hours, …"); empty
    where the call's sentence stands alone (nothing says what to do on the other side)."""
    read = sentences(skill.body or "")
    at = next((i for i, s in enumerate(read) if s.text == sentence), None)
    if at is None:
        return []
    kept = [read[at].text]
    for other in read[at + 1 :]:
        if other.paragraph != read[at].paragraph or not CIRCUMSTANCE_OPENER.search(other.text):
            break
        kept.append(other.text)
    text = " ".join(kept)
    return kept if len(kept) > 1 and len(text) <= _LONGEST else []


def _plain(text: str) -> str:
    """A prose sentence without its `@tool.` marks, as a judge reads it."""
    return " ".join(text.replace("@tool.", "").replace("@skill.", "").split())


__all__ = ["clock_branch", "clock_offers"]
