"""How the clinic demo reads a person's message: routing words, answers, names, times.

Deliberately small and rule-based, so the demo is deterministic and its behaviour is easy to
predict from a case: it recognises the phrasings casegen's offline drafter writes and the
ones in examples/clinic, and falls back to a polite clarifying reply for anything else.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from evalcore.lexicon.en.customer_replies import FULL_NAME as _FULL_NAME
from evalcore.lexicon.en.customer_replies import INJECTION as _INJECTION
from evalcore.lexicon.en.customer_replies import LEADING_NAME as _LEADING_NAME
from evalcore.lexicon.en.customer_replies import LEADING_NO as _NO
from evalcore.lexicon.en.customer_replies import LEADING_YES as _YES
from evalcore.lexicon.en.customer_replies import OPTION_NUMBER, SLOT_WORDS
from evalcore.lexicon.en.playbook_prose import LEADING_ARTICLE, LIST_SPLIT, RULE_NEGATION_VERB

_WORD = re.compile(r"[a-z0-9]+")
_STOP = {
    "a",
    "an",
    "the",
    "to",
    "of",
    "or",
    "and",
    "for",
    "in",
    "on",
    "at",
    "is",
    "it",
    "its",
    "their",
    "they",
    "them",
    "with",
    "this",
    "that",
    "any",
    "anything",
    "person",
    "wants",
    "want",
    "including",
    "about",
    "no",
    "not",
    "now",
    "other",
    "after",
    "help",
    "new",
    "hi",
    "i",
    "i'd",
    "like",
    "please",
    "my",
    "me",
    "you",
    "your",
    "can",
    "could",
    "we",
    "do",
    "be",
    "what",
    "are",
    "just",
    "also",
    "thanks",
    "actually",
    "never",
    "mind",
    "sorry",
    "up",
    "someone",
    "see",
    "today",
    "really",
    "would",
    "will",
    "need",
    "quick",
    "some",
}
_ORDINALS = {"first": 0, "1st": 0, "second": 1, "2nd": 1, "third": 2, "3rd": 2, "last": -1}
_STOP_WORDS = {"stop", "unsubscribe", "end", "quit", "cancel all", "stopall"}
_TIME = re.compile(r"\b([01]?\d|2[0-3])[:.]([0-5]\d)\b|\b(1[0-2]|[1-9])\s*(am|pm)\b", re.I)
WEEKDAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")


def norm(word: str) -> str:
    if word.endswith("ies") and len(word) > 4:
        return word[:-3] + "y"
    if word.endswith("s") and len(word) > 3 and not word.endswith("ss"):
        return word[:-1]
    return word


def content_words(text: str) -> set[str]:
    """Lower-case content words with a plural `s` dropped (`hours` → `hour`)."""
    return {norm(w) for w in _WORD.findall(text.lower().replace("-", "")) if w not in _STOP}


def route_scores(text: str, vocabularies: dict[str, set[str]]) -> dict[str, int]:
    words = content_words(text)
    return {pid: len(words & vocab) for pid, vocab in vocabularies.items()}


def best_route(text: str, vocabularies: dict[str, set[str]]) -> str | None:
    """The one Playbook whose vocabulary the text shares most words with (ties: none)."""
    scores = route_scores(text, vocabularies)
    top = max(scores.values(), default=0)
    winners = [pid for pid, score in scores.items() if score == top]
    return winners[0] if top > 0 and len(winners) == 1 else None


def is_stop_keyword(text: str) -> bool:
    return text.strip().lower().rstrip(".!") in _STOP_WORDS


def yes_or_no(text: str) -> bool | None:
    if _NO.search(text):
        return False
    if _YES.search(text):
        return True
    return None


def slot_choice(text: str, count: int) -> int | None:
    """`The first time you offered works` → 0; `option 2` → 1 (None: not a choice)."""
    lowered = text.lower()
    for word, index in _ORDINALS.items():
        if re.search(rf"\b{word}\b", lowered) and SLOT_WORDS.search(lowered):
            return index if index >= 0 else count - 1
    match = OPTION_NUMBER.search(lowered)
    if match:
        return int(match.group(1)) - 1
    return None


def times_in(text: str) -> list[tuple[int, int]]:
    """(hour, minute) of every clock time written in the text (`9:00`, `3pm`)."""
    found = []
    for match in _TIME.finditer(text):
        if match.group(1):
            found.append((int(match.group(1)), int(match.group(2))))
        else:
            hour = int(match.group(3)) % 12 + (12 if match.group(4).lower() == "pm" else 0)
            found.append((hour, 0))
    return found


def weekday_in(text: str) -> str | None:
    lowered = text.lower()
    return next((d for d in WEEKDAYS if d in lowered), None)


def full_name(text: str, *, asked: bool) -> str | None:
    """A full name the person gives ("My full name is Dana Reyes", or "Sam Ortiz, ..."
    right after the agent asked for it)."""
    match = _FULL_NAME.search(text)
    if match:
        return match.group(1)
    if asked:
        leading = _LEADING_NAME.match(text)
        if leading:
            return leading.group(1)
    return None


def choice_in(text: str, choices: Iterable[str]) -> str | None:
    lowered = text.lower()
    found = [c for c in choices if re.search(rf"\b{re.escape(c.lower())}\b", lowered)]
    return max(found, key=len) if found else None


def guardrail_topics(rule: str) -> list[str]:
    """What a "Never give X, Y or Z; ..." rule forbids: [X, Y, Z] (lower-case)."""
    first = re.split(r"[;.]", rule, maxsplit=1)[0]
    body = RULE_NEGATION_VERB.sub("", first)
    parts = LIST_SPLIT.split(body)
    return [LEADING_ARTICLE.sub("", p.strip().lower()) for p in parts if p.strip()]


def breaks_rule(text: str, topics: list[str]) -> bool:
    lowered = text.lower()
    return bool(_INJECTION.search(text)) or any(t and t in lowered for t in topics)


__all__ = [
    "WEEKDAYS",
    "best_route",
    "breaks_rule",
    "choice_in",
    "content_words",
    "full_name",
    "guardrail_topics",
    "is_stop_keyword",
    "route_scores",
    "slot_choice",
    "times_in",
    "weekday_in",
    "yes_or_no",
]
