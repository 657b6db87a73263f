"""The person's direction for a suite, parsed deterministically (no model, no randomness).

    direction = parse_direction(
        "an impatient customer with a cracked chip; assert card_replace completes and the "
        "reason is never asked twice",
        skills=["card_replace", "check_balance"],
        tools=["place_replacement_order"],
        choices=[Choice("card_replace.replacement_reason", "damaged",
                        ("a chip or stripe that stopped working, or a bent or cracked card",))],
    )
    direction.persona       # "You are an impatient customer with a cracked chip."
    direction.requirements  # (Requirement("card_replace completes", "skill_completed",
                            #   "card_replace"), Requirement("The reason is never asked twice"))
    direction.values        # {"card_replace.replacement_reason": "damaged"}

Planners and offline drafters of every dialect share it, so one direction means the same in
all of them. The rules, in order:

1. **Clauses.** The text is split at `;`, `.`, `!`, `?` and line breaks, and before a
   requirement keyword introduced by "and", "then", "but" or a comma. A lead-in such as
   "Generate a scenario where" is dropped.
2. **Requirements.** A clause that starts with *assert*, *check*, *make sure*, *ensure*,
   *verify* or *expect* (optionally followed by "that") is a requirement; the keyword is
   dropped. It is split into parts at " and " when the part after it starts a new statement
   ("the", "that", "it", "no", an id, ...) or the part before it is structural.
3. **Structural requirements.** A part that names a real skill id followed by "completes" /
   "is activated" / "is cancelled" (and close wordings), or a real tool name followed by
   "runs" / "is called" or by "is not called" / "never runs", carries the matching check
   (`skill_completed`, `skill_activated`, `skill_cancelled`, `tool_executed`,
   `tool_not_executed`). Every other part is a plain criterion, written as the person wrote
   it with a capital first letter.
4. **Persona.** The other clauses describe the simulated person. "an impatient customer with
   X" becomes "You are an impatient customer with X."; "a customer wants X" becomes "You are
   a customer who wants X."; anything else is kept as "Keep in mind: X.", except a clause
   about the case itself ("a case that fails when the agent …", "the agent …"): that is no
   part of who the person is, so it is never pasted into a persona. Such a clause that
   names no theme and selects no value is `unread`: the offline engines cannot use it (a
   model reads the whole text), and `generate` says so.
5. **Values.** A `Choice` names one value of one field together with the phrases that
   describe it (the text in brackets after the value in a field or step description, the
   titles of buttons that set it). A value is selected when the persona clauses name it (its
   own words, `not_received` as "not received") or use its distinctive words (word stems
   that no other value of that field uses, e.g. "cracked" for `damaged`); requirement clauses
   select a value only by its own words, since they say what to check rather than who the
   person is. The highest score wins (own words count 10, each distinctive stem 1); ties go to
   the earlier mention.
6. **Themes.** Keywords ("refuses", "digression", "talk to a person", "jailbreak", ...) mark
   which kinds of behaviour the person asked for (`THEMES`), so planners can rank them first.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from evalcore.lexicon.en.case_directions import ABOUT_THE_CASE as _ABOUT_THE_CASE
from evalcore.lexicon.en.case_directions import AND_SPLIT, WHERE_LEAD, YOU_ARE
from evalcore.lexicon.en.case_directions import BEFORE_REQUIREMENT as _BEFORE_REQUIREMENT
from evalcore.lexicon.en.case_directions import LEAD_IN as _LEAD_IN
from evalcore.lexicon.en.case_directions import PERSONA as _PERSONA
from evalcore.lexicon.en.case_directions import RELATIVE as _RELATIVE
from evalcore.lexicon.en.case_directions import REQUIREMENT_START as _REQUIREMENT_START
from evalcore.lexicon.en.user_line_words import NEW_STATEMENT as _NEW_STATEMENT

from ._direction_values import (
    STOPWORDS,
    Choice,
    ValueMatch,
    best_value,
    by_field,
    content_stems,
    distinctive_stems,
    match_values,
    stem,
    value_phrases,
    value_words,
    words,
)

_SPLIT_CLAUSES = re.compile(r"[;.!?\n]+(?:\s+|$)|[;!?\n]+")

_SKILL_VERBS: tuple[tuple[str, str], ...] = (
    ("skill_cancelled", r"(?:is\s+|gets\s+)?cancel(?:l)?ed|cancels"),
    (
        "skill_completed",
        r"completes|is\s+completed|gets\s+completed|finishes|is\s+finished|ends\s+successfully"
        r"|succeeds|is\s+complete",
    ),
    (
        "skill_activated",
        r"is\s+activated|activates|gets\s+activated|starts|is\s+started|is\s+triggered"
        r"|is\s+used|kicks\s+in",
    ),
)
_TOOL_VERBS: tuple[tuple[str, str], ...] = (
    (
        "tool_not_executed",
        r"(?:is|gets)\s+(?:not|never)\s+(?:called|run|executed|used|fired)|isn't\s+(?:called|run"
        r"|executed|used)|never\s+(?:runs|fires|gets\s+called|executes)|(?:does\s+not|doesn't)"
        r"\s+(?:run|fire|execute|get\s+called)",
    ),
    (
        "tool_executed",
        r"runs|is\s+run|is\s+called|gets\s+called|is\s+executed|executes|fires|is\s+used"
        r"|succeeds",
    ),
)


def _phrases(text: str) -> tuple[str, ...]:
    return tuple(text.split("|"))


#: Behaviour themes and the phrases that ask for them (matched at word starts).
THEMES: dict[str, tuple[str, ...]] = {
    "refusal": _phrases(
        "refuse|refusal|says no|say no|saying no|declines|declining|"
        "won't confirm|does not confirm|doesn't confirm|denies|"
        "changes their mind|changes his mind|changes her mind|"
        "change their mind|rejects"
    ),
    "failure": _phrases(
        "fail|error|outage|is down|goes down|timeout|times out|unavailable|backend|sad path"
    ),
    "digression": _phrases(
        "digress|interrupt|side question|detour|switches topic|switch topic|"
        "changes the subject|changes topic|and resume|resumes"
    ),
    "correction": _phrases(
        "corrects|correction|correcting|mistake|typo|changes their answer|"
        "changes his answer|changes her answer|i meant|misspeaks"
    ),
    "escalation": _phrases(
        "human|real person|talk to a person|speak to a person|talk to someone|"
        "speak to someone|representative|escalat|hand off|handoff|hand-off|"
        "supervisor|live agent"
    ),
    "out_of_scope": _phrases(
        "out of scope|out-of-scope|off-topic|off topic|unrelated|unsupported|"
        "not supported|can't help|cannot help"
    ),
    "adversarial": _phrases(
        "adversarial|jailbreak|prompt injection|inject|leak|trick|manipulat|"
        "attack|abuse|social engineer|malicious|bypass"
    ),
    "out_of_order": _phrases(
        "out of order|out-of-order|up front|upfront|already said|all at once|"
        "in one message|volunteers|before being asked|before asked"
    ),
    "ambiguity": _phrases("ambiguous|ambiguity|vague|unclear|unsure|not sure"),
}


# --- direction ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Requirement:
    """Something the person wants checked."""

    text: str
    """The part as a criterion sentence (capitalised, no final period)."""
    check: str | None = None
    """skill_completed | skill_activated | skill_cancelled | tool_executed | tool_not_executed,
    when the part names a real skill or tool with a matching verb; None for a criterion."""
    target: str | None = None
    """The skill id or tool name the check is about."""


@dataclass(frozen=True)
class Direction:
    text: str = ""
    persona: str | None = None
    """Second-person persona sentences for the simulated user, or None."""
    persona_clauses: tuple[str, ...] = ()
    requirements: tuple[Requirement, ...] = ()
    values: dict[str, Any] = field(default_factory=dict)
    """Selected value per field."""
    themes: frozenset[str] = frozenset()
    skills: tuple[str, ...] = ()
    """Skill ids (or other source ids) the text names."""
    tools: tuple[str, ...] = ()
    """Tool names the text names."""
    unread: tuple[str, ...] = ()
    """Clauses about the case that the offline engines cannot use (rule 4)."""

    @property
    def empty(self) -> bool:
        return not self.text.strip()

    @property
    def criteria(self) -> list[str]:
        """Requirements without a structural check (the judge scores them)."""
        return [r.text for r in self.requirements if r.check is None]

    def checks(self, kind: str) -> list[str]:
        """Targets of the structural requirements of one kind."""
        return [r.target for r in self.requirements if r.check == kind and r.target]

    def as_facts(self) -> dict[str, Any]:
        """The JSON-able form planners put in `Behavior.facts["direction"]`."""
        return {
            "text": self.text,
            "persona": self.persona,
            "requirements": [
                {"text": r.text, "check": r.check, "target": r.target} for r in self.requirements
            ],
            "values": dict(self.values),
            "themes": sorted(self.themes),
            "unread": list(self.unread),
        }


def clauses(text: str) -> list[str]:
    """Rule 1: the clauses of a direction, lead-ins dropped, empty ones skipped."""
    out: list[str] = []
    for raw in _SPLIT_CLAUSES.split(text or ""):
        for piece in _BEFORE_REQUIREMENT.split(raw):
            piece = _LEAD_IN.sub("", piece.strip()).strip(" ,:-")
            piece = WHERE_LEAD.sub("", piece)
            if piece:
                out.append(piece)
    return out


def is_requirement(clause: str) -> bool:
    return _REQUIREMENT_START.match(clause) is not None


def _id_pattern(name: str) -> str:
    parts = [re.escape(p) for p in re.split(r"[_\s]+", name) if p]
    return r"(?<![\w])" + r"[_\s]".join(parts) + r"(?![\w])"


def _structural(part: str, skills: Sequence[str], tools: Sequence[str]) -> tuple[str, str] | None:
    """(check, target) when the part names a real tool or skill with a matching verb."""
    for tool in sorted(tools, key=len, reverse=True):
        for check, verbs in _TOOL_VERBS:
            pattern = rf"{_id_pattern(tool)}(?:\s+tool)?\s+(?:{verbs})\b"
            if re.search(pattern, part, re.IGNORECASE):
                return check, tool
    for skill in sorted(skills, key=len, reverse=True):
        for check, verbs in _SKILL_VERBS:
            pattern = rf"{_id_pattern(skill)}(?:\s+(?:skill|flow|playbook))?\s+(?:{verbs})\b"
            if re.search(pattern, part, re.IGNORECASE):
                return check, skill
    return None


def _split_requirement(body: str, skills: Sequence[str], tools: Sequence[str]) -> list[str]:
    """Rule 2: split at " and " where a new statement starts."""
    ids = [*skills, *tools]
    pieces = AND_SPLIT.split(body)
    parts: list[str] = []
    for piece in pieces:
        piece = piece.strip()
        if not piece:
            continue
        first = piece.split()[0].lower()
        starts_new = first in _NEW_STATEMENT or any(
            re.match(_id_pattern(i), piece, re.IGNORECASE) for i in ids
        )
        if parts and not (starts_new or _structural(parts[-1], skills, tools)):
            parts[-1] = f"{parts[-1]} and {piece}"
        else:
            parts.append(piece)
    return parts


def _sentence(text: str) -> str:
    """Capitalise a plain first word; an id (`card_replace`) keeps its spelling."""
    text = text.strip().rstrip(".")
    first = text.split(" ", 1)[0] if text else ""
    if re.fullmatch(r"[a-z]+", first):
        return text[:1].upper() + text[1:]
    return text


def persona_sentence(clause: str) -> str:
    """Rule 4: one persona clause as a second-person sentence."""
    clause = clause.strip().rstrip(".")
    you = YOU_ARE.match(clause)
    if you:
        return f"You are {you.group(1)}."
    match = _PERSONA.match(clause)
    if match is None:
        return f"Keep in mind: {clause}."
    adjectives = match["adjectives"] or ""
    noun = match["noun"]
    rest = match["rest"].strip()
    lead = (adjectives + noun).strip()
    article = "an" if lead[:1].lower() in "aeiou" else "a"
    if rest and not _RELATIVE.match(rest):
        rest = "who " + rest
    if rest.startswith(","):
        return f"You are {article} {lead}{rest}."
    return f"You are {article} {lead}{' ' + rest if rest else ''}."


def themes_of(text: str) -> frozenset[str]:
    """Rule 6: the behaviour themes the text asks for."""
    lowered = text.lower()
    found = set()
    for theme, phrases in THEMES.items():
        if any(re.search(r"(?<![\w])" + re.escape(p), lowered) for p in phrases):
            found.add(theme)
    return frozenset(found)


def parse_direction(
    text: str | None,
    *,
    skills: Iterable[str] = (),
    tools: Iterable[str] = (),
    choices: Iterable[Choice] = (),
) -> Direction:
    """Parse a direction against the real ids and values of a project (see the rules above)."""
    text = (text or "").strip()
    if not text:
        return Direction()
    skills, tools = list(skills), list(tools)
    read = clauses(text)  # lead-ins dropped: "a case that fails when" is no failure theme
    persona_parts: list[str] = []
    about_case: list[str] = []
    requirements: list[Requirement] = []
    requirement_text: list[str] = []
    for clause in read:
        if is_requirement(clause):
            body = _REQUIREMENT_START.sub("", clause, count=1).strip()
            requirement_text.append(body)
            for part in _split_requirement(body, skills, tools):
                found = _structural(part, skills, tools)
                requirements.append(Requirement(_sentence(part), *(found or (None, None))))
        elif _ABOUT_THE_CASE.search(clause):
            about_case.append(clause)
        else:
            persona_parts.append(clause)
    persona_text = ". ".join([*persona_parts, *about_case])
    values: dict[str, Any] = {}
    fields = by_field(choices)
    for field_name, options in fields.items():
        best = best_value(persona_text, options) if persona_text else None
        if best is None and requirement_text:
            best = best_value(" ".join(requirement_text), options, own_words_only=True)
        if best is not None:
            values[field_name] = best.value
    named_skills = tuple(s for s in skills if re.search(_id_pattern(s), text, re.IGNORECASE))
    named_tools = tuple(t for t in tools if re.search(_id_pattern(t), text, re.IGNORECASE))
    return Direction(
        text=text,
        persona=" ".join(persona_sentence(p) for p in persona_parts) or None,
        persona_clauses=tuple(persona_parts),
        requirements=tuple(requirements),
        values=values,
        themes=themes_of(" ".join(read)),
        skills=named_skills,
        tools=named_tools,
        unread=tuple(
            c
            for c in about_case
            if not themes_of(c) and not any(best_value(c, options) for options in fields.values())
        ),
    )


__all__ = [
    "STOPWORDS",
    "THEMES",
    "Choice",
    "Direction",
    "Requirement",
    "ValueMatch",
    "best_value",
    "by_field",
    "clauses",
    "content_stems",
    "distinctive_stems",
    "is_requirement",
    "match_values",
    "parse_direction",
    "persona_sentence",
    "stem",
    "themes_of",
    "value_phrases",
    "value_words",
    "words",
]
