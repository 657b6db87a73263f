"""What the user wants, as the clause after "You": `want to replace a card`.

Read from the skill's name when it is a verb phrase ("Replace a card", "File Claim" → `want
to file a claim`), else from the description's first sentence in the third person ("Books a
table for …" → `want to book a table for …`), else from its subject (`want help with broken
equipment`, `want to know where an existing claim stands`). Never the id.
"""

from __future__ import annotations

import re
from typing import Any

from evalcore.agents.demo._mantle_words import field_words, routed_skill, routing_words
from evalcore.definitions import MantleDefinitions, Skill
from evalcore.simulator._facts import opening_line

from ...planning._mantle_phrases import (
    _as_sentence,
    activation_phrase,
    cue_line,
    is_neutral,
    person_phrases,
    second_person,
    subject,
)
from ...planning._mantle_requests import Request, id_like, instruction_request, requests

VERBS = frozenset(
    [
        "activate",
        "add",
        "apply",
        "arrange",
        "ask",
        "block",
        "book",
        "buy",
        "cancel",
        "change",
        "check",
        "choose",
        "close",
        "create",
        "declare",
        "delete",
        "dispute",
        "download",
        "edit",
        "file",
        "find",
        "fix",
        "get",
        "join",
        "leave",
        "list",
        "log",
        "make",
        "manage",
        "move",
        "open",
        "order",
        "pass",
        "pay",
        "plan",
        "print",
        "raise",
        "rebook",
        "redeem",
        "refill",
        "refund",
        "register",
        "reissue",
        "remove",
        "renew",
        "rent",
        "replace",
        "report",
        "request",
        "reschedule",
        "reserve",
        "reset",
        "return",
        "review",
        "schedule",
        "search",
        "see",
        "send",
        "set",
        "sign",
        "start",
        "stop",
        "submit",
        "swap",
        "switch",
        "talk",
        "speak",
        "top",
        "track",
        "transfer",
        "update",
        "upgrade",
        "upload",
        "verify",
        "view",
        "withdraw",
    ]
)
_DETERMINERS = frozenset(
    ["a", "an", "the", "my", "your", "our", "their", "this", "that", "some", "any"]
)
_PREPOSITIONS = frozenset(
    ["to", "with", "for", "about", "on", "in", "at", "from", "into", "up", "out", "off"]
)
_MASS = frozenset(
    [
        "travel",
        "help",
        "access",
        "money",
        "rent",
        "insurance",
        "information",
        "advice",
        "support",
        "equipment",
        "feedback",
        "time",
        "cover",
        "coverage",
        "leave",
        "stock",
        "inventory",
    ]
)
_POSSESSED = frozenset(
    [
        "account",
        "balance",
        "booking",
        "appointment",
        "subscription",
        "password",
        "address",
        "profile",
        "card",
        "policy",
        "payment",
        "reservation",
        "plan",
        "details",
        "delivery",
        "prescription",
        "lease",
        "order",
        "orders",
        "bill",
        "statement",
        "pin",
        "limit",
        "shift",
        "schedule",
    ]
)


_NOUN_HEADS = frozenset(
    [
        "status",
        "history",
        "details",
        "info",
        "overview",
        "options",
        "settings",
        "payments",
        "summary",
        "support",
        "help",
        "count",
        "issues",
        "questions",
    ]
)


def _verb_phrase(words: list[str]) -> bool:
    """`Replace a card`, `File Claim`: a verb and its object; not `Order status`, `Rent and
    payments` (a noun compound that starts with a verb-like word)."""
    if not words or words[0].lower() not in VERBS:
        return False
    rest = [w.lower() for w in words[1:]]
    return not ("and" in rest or (rest and rest[-1] in _NOUN_HEADS))


def _third_to_plain(word: str) -> str | None:
    lowered = word.lower()
    for cut, add in (("ies", "y"), ("shes", "sh"), ("ches", "ch"), ("sses", "ss"), ("s", "")):
        if lowered.endswith(cut):
            base = lowered[: len(lowered) - len(cut)] + add
            if base in VERBS:
                return base
    return None


def _with_object(verb: str, rest: list[str]) -> str:
    words = [w if w.isupper() and len(w) > 1 else w.lower() for w in rest]
    if words and words[0] not in _DETERMINERS | _PREPOSITIONS:
        noun = words[-1].strip(".,")
        if noun in _POSSESSED or words[0] in _POSSESSED:
            words.insert(0, "your")
        elif not noun.endswith("s") and noun not in _MASS:
            words.insert(0, "an" if words[0][:1] in "aeiou" else "a")
    return " ".join([verb, *words])


def intent_clause(defs: MantleDefinitions, skill: Skill) -> str:
    """The clause after "You" (see module doc)."""
    named = name_intent(skill)
    if named is not None and not id_like(skill):
        return named
    asked = _request(defs, skill, routed=True)
    if asked is not None and asked.strong:
        return asked.intent
    if named is not None and routes(defs, skill, opening_line(named)):
        return named
    asked = _request(defs, skill, routed=True)
    if asked is not None:
        return asked.intent
    if named is not None:
        return named
    asked = _request(defs, skill)
    if asked is not None:
        return asked.intent
    description = " ".join((skill.description or "").split())
    sentence = re.split(r"(?<=[.!?])\s|[:;]", description, maxsplit=1)[0].rstrip(".")
    first, _, rest = sentence.partition(" ")
    plain = _third_to_plain(first)
    if plain and rest and len(rest.split()) <= 14:
        return f"want to {plain} {second_person(rest)}"
    about = " ".join(subject(skill).replace("_", " ").split())
    about = about[:1].lower() + about[1:]
    if about.split(" ", 1)[0] in ("where", "what", "how", "who", "when", "which", "whether"):
        return f"want to know {second_person(about)}"
    if re.search(r"\b(?:is|are|was|were|has|have)\b", about):
        return f"want help because {second_person(about)}"
    return f"want help with {second_person(about)}"


_MONTH = re.compile(
    r"\s+(?:for|in|from|of|since)\s+(?:last\s+|this\s+|next\s+)?(?:January|February|March|"
    r"April|May|June|July|August|September|October|November|December)(?:\s+\d{4})?\b"
)


def routes(defs: MantleDefinitions, skill: Skill, line: str) -> bool:
    """Whether `line`, said as the first message, asks for `skill` (the reference agent's
    router)."""
    return routed_skill(defs, routing_words(defs), line) == skill.id


def name_intent(skill: Skill) -> str | None:
    """`want to replace a card` from a name that is a verb phrase ("Replace a card", "File
    Claim"), else None."""
    name = (skill.name or "").strip()
    words = name.replace("_", " ").split()
    if "_" not in name and _verb_phrase(words):
        return "want to " + _with_object(words[0].lower(), words[1:])
    return None


def _request(defs: MantleDefinitions, skill: Skill, *, routed: bool = False) -> Request | None:
    """Where the skill's name is its id in words, the description's request that routes to
    it (with `routed`, only that; else the first request, else the first quoted phrasing),
    so neither the intent nor the opening speaks the id."""
    if not id_like(skill):
        return None
    found = requests(skill)
    # what the description quotes people saying to activate the skill comes before its own
    # first sentence or topic ("Parental leave processes and policy"); an example of one
    # mode or value ("roll back push-gateway", "the fridge was at 46") only after them
    quoted = [p for p in person_phrases(skill) if is_neutral(defs, skill, p)]
    activating = set(person_phrases(skill, activating=True))
    said = [Request(f'want to ask the agent: "{p}"', _greeted(p)) for p in quoted]
    first = [r for r, p in zip(said, quoted, strict=True) if p in activating and _plain(p)]
    team = instruction_request(skill)
    own = [r for r in found if r.strong and (team is None or r.line != team.line)]
    ordered = [*own, *first, *(r for r in found if r not in own)]
    ordered += [r for r in said if r not in first]
    words = routing_words(defs)
    hit = next((r for r in ordered if routed_skill(defs, words, r.line) == skill.id), None)
    if hit is not None or routed:
        return hit
    return next(iter(ordered), None)


def _plain(phrase: str) -> bool:
    """A phrasing with no number in it (a number is one case's value, "at 46")."""
    return not any(c.isdigit() for c in phrase)


def _greeted(phrase: str) -> str:
    """A quoted question as a first message: greeted like every other opening ("Hi, what
    can you do?"); a statement or a keyword stays as the person types it ("I'm sick.")."""
    line = _as_sentence(phrase)
    if not line.endswith("?"):
        return line
    if line.split(" ", 1)[0] not in ("I", "I'm", "I'd"):
        line = line[:1].lower() + line[1:]
    return f"Hi, {line}"


def without_month(phrase: str) -> str:
    """The skill's example phrasing without the month it names ("Send me a receipt for
    November." -> "Send me a receipt."): the month the case is about is its fact's, which
    the test data draws, and the opening must not name another one."""
    return _MONTH.sub("", phrase)


def own_opening(
    defs: MantleDefinitions, skill: Skill, kind: str, facts: dict[str, Any]
) -> str | None:
    """The first message a case needs in place of the plain one, or None: a cue case says
    what the prose's cue waits for; a case whose plain opening ("Hi, I'd like help with
    approve a swap.") states another value of the skill's fields than the case gives it
    opens with the skill's value-neutral phrasing."""
    cue = (facts.get("cue") or {}).get("said")
    if kind == "cue" and cue:
        return cue_line(defs, skill, str(cue))
    values = facts.get("values") or {}
    named = name_intent(skill)
    asked = _request(defs, skill, routed=True)
    if named is not None and routes(defs, skill, opening_line(named)):
        # the name's verb phrase routes: `opening_line` of the intent says it, unless a
        # request of the description's own sentences routes too
        asked = asked if asked is not None and asked.strong else None
    elif asked is None and named is None:
        asked = _request(defs, skill)
    if asked is not None and not contradicts(defs, skill, values, asked.line):
        # the name is the id in words: the opening is the request the intent names
        return asked.line
    if contradicts(defs, skill, values, opening_line(intent_clause(defs, skill))):
        neutral = activation_phrase(defs, skill)
        if not contradicts(defs, skill, values, neutral):
            return neutral
    return None


def contradicts(defs: MantleDefinitions, skill: Skill, values: dict[str, Any], said: str) -> bool:
    """Whether a first message ("Hi, I'd like help with approve a swap.") states a value of
    one of the skill's fields other than the one the case gives it (`values`): the agent
    would record that value from it."""
    for qualified, value in values.items():
        if qualified.startswith(skill.id + "."):
            stated = field_words(defs, qualified).stated(said)
            if stated is not None and stated != value:
                return True
    return False


__all__ = [
    "VERBS",
    "contradicts",
    "intent_clause",
    "name_intent",
    "own_opening",
    "routes",
    "without_month",
]
