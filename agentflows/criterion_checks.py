"""A criterion's separate checks: `split_compound` cuts "X and Y" into the checks a judge
grades one by one.

Drafting (which avoids writing a compound criterion), review's `compound-criterion` rule
and the pre-write repair all read criteria this way. It lives outside `agentflows.review`
so that drafting a run's first case does not import the review rules, scoring and
assertions before its request is sent (they load later, when the run reviews).
"""

from __future__ import annotations

import re

from evalcore.lexicon.en.case_wording import AND_CLAUSE, AND_LEAD, SUBJECT
from evalcore.lexicon.en.criterion_conjuncts import ELLIPTICAL

_ABBREVIATIONS = ("dr.", "mr.", "mrs.", "ms.", "e.g.", "i.e.", "etc.", "vs.", "st.", "no.")
#: A name's initial ("A." of "Dr. A. Menon").
_INITIAL = re.compile(r"\(?[A-Z]\.")
_SUBJECT = SUBJECT.pattern
_AND_CLAUSE = AND_CLAUSE

#: A quoted passage (a reply or a rule the criterion cites).
QUOTED = re.compile(r"“[^”]*”|\"[^\"]*\"|'[^']{3,}'(?!\w)")


def mask_quotes(text: str) -> str:
    """`text` with quoted passages blanked (same length), so an "and", a ";" or a full stop
    inside a quoted reply or rule is not read as a second check."""
    return QUOTED.sub(lambda m: m.group(0)[0] + "x" * (len(m.group(0)) - 2) + m.group(0)[-1], text)


def split_compound(text: str) -> list[str]:
    """The separate checks in a criterion (one item when it is a single check)."""
    text = text.strip()
    masked = mask_quotes(text)
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


__all__ = ["QUOTED", "mask_quotes", "split_compound"]
