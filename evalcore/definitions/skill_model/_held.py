"""What the user has that a prose call waits for: "If they have an order number (R- and
eight digits) use @tool.get_order_status; otherwise list their open orders with
@tool.list_open_orders and ask which one."

Nothing tells the agent to ask for the thing, so the call holds only where the user says
they have it; a user who says they do not ("I don't have my order number") takes the
sentence's other call. The drafter reads the thing to have the user say it up front, the
reference agent to take the other call when the user says they lack it.
"""

from __future__ import annotations

from ...lexicon.en.skill_prose import LISTED_OTHERWISE
from ...lexicon.en.skill_prose_words import HELD_DETERMINERS as _ARTICLES
from ...lexicon.en.skill_prose_words import HELD_THING_ENDS as _CALLING
from ...lexicon.en.user_turns import LACKS
from ...lexicon.en.word_classes import THIRD_PERSON_SUBJECTS

#: "If they have …", "If the caller has …": the subject, the verb and what comes before the
#: thing had ("an order number"), word by word.
_HAVE = frozenset({"have", "has"})
_LONGEST = 4


def held_thing(sentence: str) -> str | None:
    """`order number` for "If they have an order number (R- and eight digits) use
    @tool.x"; None for a sentence that does not open on what the user has."""
    words = sentence.split()
    if len(words) < 5 or words[0].lower() != "if":
        return None
    at = 2 if words[1].lower() in THIRD_PERSON_SUBJECTS else 3 if words[1].lower() == "the" else 0
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


def says_lacking(thing: str, text: str) -> bool:
    """Whether `text` (the user's words) says they do not have `thing` ("I don't have my
    order number" for `order number`): its words open what the user lacks."""
    wanted = thing.lower().split()
    for found in LACKS.finditer(text):
        said = found["thing"].lower().replace("-", " ").split()
        if said[: len(wanted)] == wanted:
            return True
    return False


def lacking_cue(sentence: str) -> str | None:
    """The cue of the other call of a sentence that opens on what the user has: `they say
    they do not have an order number` (`cues.user_cue`, heard by `says_lacking`)."""
    thing = held_thing(sentence)
    if thing is None:
        return None
    article = "an" if thing[:1] in "aeiou" else "a"
    return f"they say they do not have {article} {thing}"


def lacked_in_cue(cue: str) -> str | None:
    """The thing a `lacking_cue` says the user lacks (`order number`), else None."""
    head = "they say they do not have "
    if not cue.startswith(head):
        return None
    return cue[len(head) :].split(" ", 1)[-1]


def listed_things(sentence: str) -> str | None:
    """What the sentence's other way in lists for the user to pick from (`open orders` for
    "… otherwise list their open orders with @tool.list_open_orders and ask which one")."""
    found = LISTED_OTHERWISE.search(" ".join(sentence.split()))
    return found["things"].lower() if found is not None else None


__all__ = ["held_thing", "lacked_in_cue", "lacking_cue", "listed_things", "says_lacking"]
