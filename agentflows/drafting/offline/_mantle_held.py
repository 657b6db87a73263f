"""What the user has that a prose call waits for, said in the first message.

"If they have an order number (R- and eight digits) use @tool.get_order_status; otherwise
list their open orders with @tool.list_open_orders and ask which one." Nothing tells the
agent to ask for the number, so a user who gives it only when asked never makes the
condition hold, and a correct agent lists the open orders instead of the call the case
asserts. Where the case's walk takes such a call and its facts hold the thing ("order
number: R-44897857"), the user says it up front.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from evalcore.definitions import Project
from evalcore.definitions.skill_model import skill_model

#: "If they have …", "If the caller has …": the subject, the verb and what comes before the
#: thing had ("an order number"), word by word.
_SUBJECTS = frozenset({"they", "he", "she"})
_HAVE = frozenset({"have", "has"})
_ARTICLES = frozenset({"a", "an", "the", "their", "his", "her"})
#: Words that end the thing: the call the sentence goes on to.
_CALLING = frozenset({"use", "call", "run", "check", "look", "then", "with"})
_LONGEST = 4


def held_thing(sentence: str) -> str | None:
    """`order number` for "If they have an order number (R- and eight digits) use
    @tool.x"; None for a sentence that does not open on what the user has."""
    words = sentence.split()
    if len(words) < 5 or words[0].lower() != "if":
        return None
    at = 2 if words[1].lower() in _SUBJECTS else 3 if words[1].lower() == "the" else 0
    if not at or words[at].lower() not in _HAVE or words[at + 1].lower() not in _ARTICLES:
        return None
    thing: list[str] = []
    for word in words[at + 2 :]:
        if word.startswith(("(", "@")) or word.lower().strip(",;") in _CALLING:
            break
        thing.append(word.strip(",;").lower())
        if word.endswith((",", ";")):
            break
    return " ".join(thing) if 0 < len(thing) <= _LONGEST else None


def held_lines(
    project: Project, skill_id: str, ran: Iterable[str], facts: Iterable[Any]
) -> list[str]:
    """ "My order number is R-44897857.": one line per fact (with `label` and `value`) that
    names what a call the case's walk ran waits for the user to have."""
    model = skill_model(project, skill_id)
    ran = set(ran)
    things = {
        thing
        for use in model.tools
        if use.name in ran
        for call in use.calls
        if call.kind == "prose" and (thing := held_thing(call.sentence or ""))
    }
    return [f"My {f.label} is {f.value}." for f in facts if str(f.label).lower() in things]


__all__ = ["held_lines", "held_thing"]
