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
    CALLS_TOOL,
    EVENT_VERBS,
    NEGATION,
    SETS_KEY,
    VAGUE,
)

from ...criterion_checks import QUOTED, mask_quotes, split_compound
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
    quoted = [m.span() for m in QUOTED.finditer(text)]
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
    masked = mask_quotes(text)
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


__all__ = ["split_compound", "structural"]
