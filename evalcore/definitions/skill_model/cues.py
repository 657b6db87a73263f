"""What the user says that makes the prose take an alternative: "If they ask about an
existing request, check @tool.list_unit_work_orders …; do not open a duplicate."

Such a call is optional (most conversations never say it), so walks leave it out; but the
sentence names exactly what the user says, and an agent that ignores it (opens a duplicate,
never checks) is wrong. `user_cue` reads the clause as the user's cue when its subject is
the user and its verb is one of saying or wanting; `cue_words` are the words a message has
to hold for the agent to have heard it, and `heard` is that test: the planner's walk, the
reference agent and the drafted opening all read the cue from here. A cue is an
alternative to the rest of the prose: once its call ran, the skill stops there.
"""

from __future__ import annotations

import re
from functools import lru_cache

from ..._stem import stem
from ...lexicon.en.skill_tool_calls import PEOPLE as _PEOPLE
from ...lexicon.en.skill_tool_calls import USER_CLAUSE as _USER_CLAUSE
from ...lexicon.en.stop_words import CUE_FILLER
from ._held import lacked_in_cue, says_lacking

#: Words every cue has that say nothing of what it is about, and the words for people.
_FILLER = CUE_FILLER | frozenset(_PEOPLE.split("|"))
#: A shape written in the prose for an id ("(FX-######)"): the user says a real one.
_SHAPE = re.compile(r"\s*\([^)]*[#X]{3,}[^)]*\)|\s*\(\s*[A-Z]+-#+\s*\)")


def user_cue(clause: str) -> str | None:
    """The clause as the user's cue (`they ask about an existing request`), or None when
    its subject is not the user or it holds no word of its own."""
    text = " ".join(clause.split())
    if not _USER_CLAUSE.match(text):
        return None
    text = _SHAPE.sub("", text).strip(" ,")
    return text if cue_words(text) else None


#: The verb after a paragraph's topic in its opening statement ("Board packs and
#: compensation papers are restricted."), and the words that join the things it names.
_BE = frozenset({"is", "are"})
_JOINS = frozenset({"and", "or"})
_QUOTED = re.compile(r"[\"“]([^\"”]+)[\"”]")


def _topic(lead: str) -> list[str]:
    """The things a statement with no call in it names before its "is/are" ("Board packs",
    "compensation papers"); none for a step, a question or a call."""
    text = " ".join(lead.split())
    if "@" in text or not text[:1].isupper() or not text.endswith((".", "!")):
        return []
    words = text.rstrip(".!").split()
    at = next((k for k, w in enumerate(words) if w.lower() in _BE), 0)
    parts: list[list[str]] = [[]]
    for word in words[:at]:
        if word.lower() in _JOINS:
            parts.append([])
            continue
        parts[-1].append(word.strip(",").lower())
        if word.endswith(","):
            parts.append([])
    return [" ".join(p) for p in parts if p]


def topic_cue(lead: str, description: str | None) -> str | None:
    """The cue of a paragraph that opens by naming what it is about ("Board packs and
    compensation papers are restricted.") where the skill's description lists that as a
    request of its own ("what's in the board pack"): the paragraph's calls serve that
    request only, so they wait for the user to ask about it (`they ask about board packs`).
    None when the lead names no such topic."""
    examples = [
        {stem(w) for w in re.findall(r"[a-z]+", e.lower())}
        for e in _QUOTED.findall(description or "")
    ]
    for part in _topic(lead):
        cue = user_cue(f"they ask about {part}")
        if cue is not None and any(cue_words(cue) <= said for said in examples):
            return cue
    return None


def own_words(cue: str) -> list[str]:
    """The cue's words that say what it is about, in order (`existing`, `request`)."""
    return [w for w in re.findall(r"[a-z]+", cue.lower()) if w not in _FILLER and len(w) > 1]


@lru_cache(maxsize=1024)
def cue_words(cue: str) -> frozenset[str]:
    """The stems a message holds when it says the cue."""
    return frozenset(stem(w) for w in own_words(cue))


def heard(cue: str, text: str) -> bool:
    """Whether `text` (the user's messages) says the cue: every one of its words; a cue of
    lacking a thing (`they say they do not have an order number`) where the user says they
    lack it ("I don't have my order number": no "do", no "not"; while "I have my order
    number, I do not have the receipt" holds every word and says no such thing)."""
    lacked = lacked_in_cue(cue)
    if lacked is not None:
        return says_lacking(lacked, text)
    wanted = cue_words(cue)
    return bool(wanted) and wanted <= _stems(text)


@lru_cache(maxsize=1024)
def _stems(text: str) -> frozenset[str]:
    """The stems of `text`'s words. Kept per text: the reference agent asks `heard` of the
    same user messages for each cue of a skill, at every step of a play."""
    return frozenset(stem(w) for w in re.findall(r"[a-z]+", text.lower()))


__all__ = ["cue_words", "heard", "own_words", "topic_cue", "user_cue"]
