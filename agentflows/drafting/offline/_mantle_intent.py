"""What the user wants, as the clause after "You": `want to replace a card`.

Read from the skill's name when it is a verb phrase ("Replace a card", "File Claim" → `want
to file a claim`), else from the description's first sentence in the third person ("Books a
table for …" → `want to book a table for …`), else from its subject (`want help with card
replacement`). Never the id: a snake_case name is read as words only when nothing else fits.
"""

from __future__ import annotations

import re

from evalcore.definitions import MantleDefinitions, Skill

from ...planning._mantle_phrases import second_person, subject

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
        "claim",
        "cancel",
        "change",
        "check",
        "choose",
        "close",
        "create",
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
        "pay",
        "plan",
        "print",
        "raise",
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
        "claim",
        "claims",
        "bill",
        "statement",
        "pin",
        "limit",
        "shift",
        "schedule",
        "leave",
    ]
)


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
    if words and words[0] not in _DETERMINERS and verb not in ("talk", "speak", "log", "sign"):
        noun = words[-1].strip(".,")
        if noun in _POSSESSED or words[0] in _POSSESSED:
            words.insert(0, "your")
        elif not noun.endswith("s"):
            words.insert(0, "an" if words[0][:1] in "aeiou" else "a")
    return " ".join([verb, *words])


def intent_clause(defs: MantleDefinitions, skill: Skill) -> str:
    """The clause after "You" (see module doc)."""
    name = (skill.name or "").strip()
    words = name.replace("_", " ").split()
    if words and "_" not in name and words[0].lower() in VERBS:
        return "want to " + _with_object(words[0].lower(), words[1:])
    description = " ".join((skill.description or "").split())
    sentence = re.split(r"(?<=[.!?])\s|[:;]", description, maxsplit=1)[0].rstrip(".")
    first, _, rest = sentence.partition(" ")
    plain = _third_to_plain(first)
    if plain and rest and len(rest.split()) <= 14:
        return f"want to {plain} {second_person(rest)}"
    if words and words[0].lower() in VERBS:
        return "want to " + _with_object(words[0].lower(), words[1:])
    about = subject(skill)
    if "_" in about:
        about = about.replace("_", " ")
    return f"want help with {about[:1].lower()}{about[1:]}"


__all__ = ["VERBS", "intent_clause"]
