"""Criteria rules: a criterion is one bot-side judgement a reviewer reads the transcript for.

A criterion that is really a lookup against events belongs in the assertions (the judge may
get it wrong, an assertion cannot); one with nothing observable in it ("responds
appropriately") cannot be judged consistently; two checks in one criterion fail together, so
a failure does not say which.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from evalcore.dialects import get_dialect
from evalcore.lexicon.en.case_wording import (
    ACTIVATES_SKILL,
    AND_CLAUSE,
    AND_LEAD,
    CALLS_TOOL,
    EVENT_VERBS,
    NEGATION,
    SETS_KEY,
    SUBJECT,
    VAGUE,
)
from evalcore.lexicon.en.criterion_conjuncts import ELLIPTICAL

from .._views import CaseView, Part, ReviewEnv
from .._vocab import Mention
from ._registry import Hit, review_rule

_NEGATION = NEGATION
#: Verbs that make a named tool / skill / memory key an event lookup, by the id's kind.
_EVENT_VERBS = EVENT_VERBS
#: Kinds whose mere mention is a lookup (a response name, a qualified memory name).
_ALWAYS = {"response"}
#: Event phrasings without a known id ("calls some_tool", "sets x.y", "activates ... skill").
_GENERIC = [
    (CALLS_TOOL, "tool"),
    (SETS_KEY, "memory"),
    (ACTIVATES_SKILL, "skill"),
]


@review_rule(
    "criterion-is-deterministic",
    severity="warning",
    summary="A criterion that is a lookup against events (a tool, skill, response or memory "
    "value): write it as an assertion.",
)
def criterion_is_deterministic(case: CaseView, env: ReviewEnv) -> Iterator[Hit]:
    for part in case.criteria:
        found = _lookup(part, env, case.dialect)
        if found is None:
            continue
        described, suggestion = found
        yield Hit(
            part.path,
            f"criterion is a lookup against events ({described}); the judge can only get it "
            "wrong, an assertion cannot",
            suggestion=suggestion,
            value=part.text,
        )


def _lookup(part: Part, env: ReviewEnv, dialect: str) -> tuple[str, str | None] | None:
    text = part.text
    quoted = [m.span() for m in _QUOTED.finditer(text)]
    for mention in env.vocab.mentions(text):
        if any(start <= mention.start < end for start, end in quoted):
            continue  # a quoted rule or reply ("as the playbook asks: “… call x …”")
        clause = _clause(text, mention)
        negated = bool(_NEGATION.search(clause))
        qualified_memory = mention.kind == "memory" and "." in mention.id
        if mention.kind in _ALWAYS or qualified_memory or _has_verb(clause, mention.kind):
            suggestion = structural(env, dialect, mention.kind, mention.qualified, negated=negated)
            if suggestion is None and negated:
                continue  # "never starts skill x": no structural check can say it
            return f"it names the {_NOUN[mention.kind]} '{mention.id}'", suggestion
    masked = _mask_quotes(text)
    for pattern, kind in _GENERIC:
        if kind not in get_dialect(dialect).criterion_mentions:
            continue  # memory keys and skills are Mantle's
        match = pattern.search(masked)
        if match:
            name = match.group(1) if match.groups() else None
            negated = bool(_NEGATION.search(masked[: match.start()].rsplit(",", 1)[-1]))
            suggestion = structural(env, dialect, kind, name, negated=negated)
            if suggestion is None and negated:
                continue  # "does not call x again": no structural check can say it
            return f"it says '{match.group(0)}'", suggestion
    return None


_NOUN = {
    "response": "response",
    "memory": "memory key",
    "tool": "tool",
    "skill": "skill",
    "block": "ordered block",
    "playbook": "playbook",
    "outcome": "outcome",
    "field": "Person field",
}


def _clause_start(text: str, mention: Mention) -> int:
    cut = max(text.rfind(mark, 0, mention.start) for mark in (";", ". ", ", and ", ", but "))
    return 0 if cut < 0 else cut + 1


def _clause(text: str, mention: Mention) -> str:
    start = _clause_start(text, mention)
    ends = [i for i in (text.find(";", mention.end), text.find(". ", mention.end)) if i >= 0]
    return text[start : min(ends) if ends else len(text)]


def _has_verb(clause: str, kind: str) -> bool:
    verbs = _EVENT_VERBS.get(kind)
    return bool(verbs and verbs.search(clause))


def structural(
    env: ReviewEnv, dialect: str, kind: str, name: str | None, *, negated: bool
) -> str | None:
    """The assertion / check that says the same thing structurally, or None if none can."""
    plugin = get_dialect(dialect)
    return plugin.structural_check(kind, name, negated=negated, project=env.project)


# --- vague -------------------------------------------------------------------------------

_VAGUE = VAGUE
_CONCRETE = re.compile(r"\d|\"[^\"]+\"|“[^”]+”|'[^']{2,}'|`[^`]+`")


@review_rule(
    "vague-criterion",
    severity="warning",
    summary="A criterion built on a judgement word (appropriately, properly, helpful, ...) "
    "with nothing concrete to observe.",
)
def vague_criterion(case: CaseView, env: ReviewEnv) -> Iterator[Hit]:
    for part in case.criteria:
        match = _VAGUE.search(part.text)
        if match is None or _is_concrete(part.text, env):
            continue
        yield Hit(
            part.path,
            f"vague criterion: '{match.group(0)}' names no observable behaviour, so two "
            "judges can grade it differently",
            suggestion="say what the agent does or never does, e.g. which fact it states, "
            "which question it asks, or what it must not say",
            value=part.text,
        )


def _is_concrete(text: str, env: ReviewEnv) -> bool:
    if _CONCRETE.search(text) or env.vocab.mentions(text):
        return True
    lowered = text.lower()
    # a value the text does not hold as a substring cannot match: no pattern for it
    return any(
        re.search(rf"\b{re.escape(v.lower())}\b", lowered)
        for v in env.vocab.values
        if v.lower() in lowered
    )


# --- compound ----------------------------------------------------------------------------

_ABBREVIATIONS = ("dr.", "mr.", "mrs.", "ms.", "e.g.", "i.e.", "etc.", "vs.", "st.", "no.")
#: A name's initial ("A." of "Dr. A. Menon").
_INITIAL = re.compile(r"\(?[A-Z]\.")
_SUBJECT = SUBJECT.pattern
_AND_CLAUSE = AND_CLAUSE


@review_rule(
    "compound-criterion",
    severity="warning",
    summary="Two checks in one criterion (joined by 'and'/'but', ';' or two sentences): "
    "split it so a failure says which one broke.",
)
def compound_criterion(case: CaseView, env: ReviewEnv) -> Iterator[Hit]:
    for part in case.criteria:
        pieces = split_compound(part.text)
        if len(pieces) < 2:
            continue
        yield Hit(
            part.path,
            f"compound criterion: {len(pieces)} checks in one, so a failure does not say "
            "which one broke",
            suggestion="split into: " + " / ".join(f"'{p}'" for p in pieces),
            value=part.text,
        )


_QUOTED = re.compile(r"“[^”]*”|\"[^\"]*\"|'[^']{3,}'(?!\w)")


def _mask_quotes(text: str) -> str:
    """`text` with quoted passages blanked (same length), so an "and", a ";" or a full stop
    inside a quoted reply or rule is not read as a second check."""
    return _QUOTED.sub(lambda m: m.group(0)[0] + "x" * (len(m.group(0)) - 2) + m.group(0)[-1], text)


def split_compound(text: str) -> list[str]:
    """The separate checks in a criterion (one item when it is a single check)."""
    text = text.strip()
    masked = _mask_quotes(text)
    cuts = [m.start() for m in re.finditer(";", masked)]
    pieces = _cut(text, cuts, width=1)
    if len(pieces) == 1:
        pieces = _sentences(text, masked)
    if len(pieces) == 1:
        match = _AND_CLAUSE.search(masked)
        if match is not None and not ELLIPTICAL.match(masked[match.start() :].strip()):
            # (a conjunct with no verb of its own is the same check: never a fragment)
            left = text[: match.start()].rstrip(" ,")
            right = text[match.start() :].strip()
            right = AND_LEAD.sub("", right)
            if not re.match(_SUBJECT, right, re.IGNORECASE):
                right = f"{_subject_of(left)} {right}"
            pieces = [left, right[0].upper() + right[1:]]
    return [p.rstrip(".") for p in pieces]


def _cut(text: str, cuts: list[int], *, width: int) -> list[str]:
    pieces, start = [], 0
    for cut in cuts:
        pieces.append(text[start:cut].strip())
        start = cut + width
    pieces.append(text[start:].strip())
    return [p for p in pieces if p]


def _sentences(text: str, masked: str) -> list[str]:
    out: list[str] = []
    start = 0
    for match in re.finditer(r"[.!?]\s+(?=[A-Z])", masked):
        before = text[start : match.start() + 1].split()
        if before and (before[-1].lower() in _ABBREVIATIONS or _INITIAL.fullmatch(before[-1])):
            continue  # "Dr. A. Menon": an abbreviation or a name's initial ends no sentence
        out.append(text[start : match.start() + 1].strip())
        start = match.end()
    out.append(text[start:].strip())
    return [s for s in out if s]


def _subject_of(sentence: str) -> str:
    match = re.match(rf"^(?:\w+\s+){{0,4}}?{_SUBJECT}\b", sentence, re.IGNORECASE)
    if match:
        subject = re.search(_SUBJECT + r"$", match.group(0), re.IGNORECASE)
        if subject:
            return subject.group(0)
    return "The agent"


__all__ = ["split_compound", "structural"]
