"""Which of a skill's description examples a case may give as what happened.

A description lists the requests that route to the skill, and not all of them are reports:
"when is the tech coming" asks about a ticket that already exists, which the prose sends to
a lookup ("if they ask when a technician is coming, look it up and stop there"), and "why did
my deploy fail" asks for the diagnose mode. Given as the symptom of a new report, such a
phrase points a correct agent at the other branch, so the case's facts stop agreeing with
the path its assertions check. A narrative answer takes only a phrase that tells something
(not a question) and whose mode, where the description's examples have modes, is the case's;
the words of the prose an `if:` scopes to another value than the case's ("Ask what they
have seen (mice, roaches)" under the pest category) tell another story, so that "there are
mice in the kitchen" is never a lock repair's problem.
"""

from __future__ import annotations

import re
from typing import Any

from evalcore.agents.reference import example_modes
from evalcore.definitions import MantleDefinitions, Skill
from evalcore.definitions.skill_model import paragraphs
from evalcore.lexicon.en.user_line_words import PLAIN_CHOICES as _PLAIN
from evalcore.lexicon.en.user_line_words import SPOKEN_QUESTION_OPENERS as _ASKING
from evalcore.testdata import DataRecords

from ._direction import content_stems


def asks(phrase: str) -> bool:
    """Whether the phrase is a question rather than a statement of what happened."""
    words = phrase.lower().split()
    return "?" in phrase or bool(words and words[0] in _ASKING)


def told_phrases(
    defs: MantleDefinitions, skill: Skill, phrases: list[str], fixed: dict[str, Any]
) -> list[str]:
    """The phrases a user may give as what happened on the case's branch: statements, and
    none that the description's examples assign to a mode other than the one `fixed` holds."""
    modes = example_modes(defs, skill)
    out = []
    for phrase in phrases:
        if asks(phrase):
            continue
        wanted = modes.get(phrase, {})
        if any(key in fixed and fixed[key] != value for key, value in wanted.items()):
            continue
        out.append(phrase)
    return out


def scoped_text(skill: Skill, qualified: str, value: Any) -> str:
    """The prose (the body's and its `instructions:` steps') that an `if:` scopes to
    `qualified == value`."""
    tested = re.compile(rf"\b{re.escape(qualified)}\s*==\s*[\"']{re.escape(str(value))}[\"']")
    texts = [skill.body or ""]
    texts += [s.target for b in skill.blocks.values() for s in b.steps if s.kind == "instructions"]
    return " ".join(
        p.text for t in texts if t for p in paragraphs(t) if tested.search(p.condition or "")
    )


def scoping_values(skill: Skill, given: dict[str, Any]) -> dict[str, Any]:
    """The choices the `given` values' fields are scoped by: where only the prose under
    `if: mode == "report_damaged"` names `damage_type`, a request that gives a damage type
    plays that mode (the walk would otherwise take the choice's first value, `track`, and
    the user would hold a mode their own words contradict). Choices `given` already has,
    and a field several values' prose names, fix nothing."""
    out: dict[str, Any] = {}
    for field in skill.memory.values():
        key = field.qualified
        if field.type != "categorical" or key in given or not field.enum_values:
            continue
        for other in given:
            name = re.compile(rf"\b{re.escape(other.rsplit('.', 1)[-1])}\b")
            scoped = [v for v in field.enum_values if name.search(scoped_text(skill, key, v))]
            if len(scoped) == 1:
                out[key] = scoped[0]
                break
    return out


#: A name of the data's own making (`push-gateway`, `SK480016`), not a word of the language
#: (`open`, `closed`): hyphenated, dotted or joined with underscores, or holding a digit.
_NAME = re.compile(r"\w+(?:[-_.]\w+)+|\w*\d\w*")


def own_names(records: DataRecords, text: str, values: list[Any]) -> str:
    """`text` (a field's example, "5xx at 12% on checkout-api since 09:40 UTC") naming the
    case's own records: a name the project's data holds under the same key as one of the
    case's `values` (`checkout-api` beside the case's `push-gateway`, both a `service`) is
    replaced by that value (the first that fits, in one pass), so a push-gateway incident's
    summary names push-gateway. A text that is itself one name is left as it is."""
    if not text.strip() or _NAME.fullmatch(text.strip()):
        return text
    instead: dict[str, str] = {}
    for value in values:
        name = value.strip() if isinstance(value, str) else ""
        if _NAME.fullmatch(name):
            for other in _siblings(records, name):
                instead.setdefault(other, name)
    found = [o for o in sorted(instead, key=len, reverse=True) if o not in instead.values()]
    if not found:
        return text
    named = re.compile(r"(?<![\w-])(?:" + "|".join(map(re.escape, found)) + r")(?![\w-])")
    return named.sub(lambda m: instead[m.group()], text)


def _siblings(records: DataRecords, value: str) -> set[str]:
    """The other names the data holds under a key that holds `value`."""
    out: set[str] = set()
    for collection in records.collections:
        keys = {k for r in collection.records for k, v in r.items() if str(v) == value}
        for key in keys:
            out |= {
                str(r[key])
                for r in collection.records
                if isinstance(r.get(key), str) and _NAME.fullmatch(r[key]) and r[key] != value
            }
    return out


def branch_intent(skill: Skill, intent: str, memory: dict[str, Any]) -> str:
    """The goal line naming the case's branch: where the line names one value of a choice
    field of the skill, and that only as the head of the description's list of its values
    ("to the sequencing, proteomics or metabolomics core", cut to its first item), the
    case's value takes its place where its path sets another: a metabolomics case wants
    help with submitting samples to the metabolomics, never to the sequencing. A line that
    names several ("the daily or weekly count") asks for them all, and one whose word is
    no list's head ("rent, balance and payments") names the skill's topic: both stay."""
    description = " ".join((skill.description or "").split())
    for field in skill.memory.values():
        value = memory.get(field.qualified)
        if field.type != "categorical" or not isinstance(value, str) or not field.enum_values:
            continue
        words = {str(v): str(v).replace("_", " ") for v in field.enum_values}
        named = [v for v, w in words.items() if re.search(rf"\b{re.escape(w)}\b", intent, re.I)]
        own = words.get(value, value)
        if len(named) != 1 or named[0] == value or own in _PLAIN:
            continue
        head = words[named[0]]
        listed = "|".join(re.escape(w) for v, w in words.items() if v != named[0])
        if not re.search(
            rf"\b{re.escape(head)}\s*(?:,|\bor\b)\s*(?:{listed})\b", description, re.I
        ):
            continue
        intent = re.sub(rf"\b{re.escape(head)}\b", lambda _, said=own: said, intent, flags=re.I)
    return intent


def handed_values(handoff: Skill, source: Skill) -> dict[str, str]:
    """The hand-off's choices the skill it takes over from names: a topic value whose words
    are the source skill's id or name (`baggage` from the baggage skill, `rebooking` from
    rebook_flight), so a passenger who asks for a person about their bags is handed over
    about bags, not about the topic list's first value."""
    own = set(content_stems(f"{source.id.replace('_', ' ')} {source.name or ''}"))
    out: dict[str, str] = {}
    for field in handoff.memory.values():
        if field.type != "categorical" or not field.enum_values:
            continue
        named = [
            v
            for v in field.enum_values
            if isinstance(v, str)
            and v not in _PLAIN
            and (said := set(content_stems(v.replace("_", " "))))
            and said <= own
        ]
        if len(named) == 1:
            out[field.qualified] = named[0]
    return out
