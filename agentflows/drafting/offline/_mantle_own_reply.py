"""A prohibition that the project's own reply on the path could be read as breaking.

"Do not promise approval or waive the late fee." next to an `on_success` response "Requested.
The property manager replies within 2 business days; no late fee is added while it's
pending.": the runtime sends that response whatever the model says, and a strict judge may
read it as waiving the fee, failing every correct agent. Where a reply the runtime sends on
the path speaks of the very thing a prohibition forbids, the criterion says that reply's
words are fine.
"""

from __future__ import annotations

from collections.abc import Iterable

from evalcore.lexicon.en.skill_prose import OWN_REPLY_CLOSE, OWN_REPLY_OPEN
from evalcore.simulator import stems

_NOT = " does not "


def _acts(rest: str) -> list[str]:
    """The acts a prohibition joins ("promise approval or waive the late fee")."""
    joined = rest.replace(" or ", ",").replace(" and ", ",").replace(";", ",")
    return [a.strip() for a in joined.split(",") if a.strip()]


def _thing(act: str) -> set[str]:
    """The stems of what an act is done to: its words after the verb, a reflexive
    ("itself") left out, as it names the agent, not the thing."""
    words = act.split()[1:]
    return stems(" ".join(w for w in words if not w.lower().endswith(("self", "selves"))))


def _clauses(text: str) -> list[str]:
    """The clauses of a reply, split where a mark ends one (not inside "2.9%")."""
    for mark in ".!?;":
        text = text.replace(mark + " ", "\n")
    return [c.strip().rstrip(".!?;") for c in text.split("\n") if c.strip()]


def allowing_reply(rule: str, replies: Iterable[str]) -> str:
    """`rule`, with the clause of a reply the runtime sends on the path that speaks of what
    the prohibition forbids said to be fine; else `rule` unchanged."""
    if _NOT not in rule:
        return rule
    rest = rule.rsplit(_NOT, 1)[1].rstrip(".")
    # a thing named by two words or more ("the late fee"): a bare "fees" is named by any
    # reply that states a price, which forbids nothing
    things = [t for t in (_thing(a) for a in _acts(rest)) if len(t) > 1]
    for text in replies:
        # a clause that fills in a value ("for claim {claim_number}") states the record the
        # runtime read, which no prohibition on the thing is about
        for clause in (c for c in _clauses(text) if "{" not in c):
            said = stems(clause)
            if any(t <= said for t in things):
                return f"{rule}{OWN_REPLY_OPEN}{clause}{OWN_REPLY_CLOSE}"
    return rule


__all__ = ["allowing_reply"]
