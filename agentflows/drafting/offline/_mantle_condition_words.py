"""A Mantle condition in words, for the criterion of a rule that holds only under it.

A rule under `if: session.goodbye.feedback_rating == "thumbs_down"` is a criterion only on a
path that fixes that condition, and then it says it: "When the feedback rating is thumbs
down, the agent says it will use the feedback to improve". A judge reading the criterion
alone sees when it applies. Only the simple shapes are said (a name, `not` a name, `==` or
`!=` a literal, joined by one kind of `and`/`or`); anything else gives None and the rule is
left out rather than stated without its condition.
"""

from __future__ import annotations

from evalcore.lexicon.notation.condition_atoms import ATOM as _ATOM

from ._direction_values import value_words


def condition_words(condition: str) -> str | None:
    """`condition` as a clause ("the feedback rating is thumbs down"), or None."""
    text = " ".join(condition.split())
    if "(" in text or ")" in text or (" and " in text and " or " in text):
        return None
    join = "or" if " or " in text else "and"
    said = [_atom(part.strip()) for part in text.split(f" {join} ")]
    if any(s is None for s in said):
        return None
    return f" {join} ".join(s for s in said if s)


def _atom(text: str) -> str | None:
    found = _ATOM.match(text)
    if found is None:
        return None
    name, op, value = found["name"], found["op"], found["value"]
    positive = not found["not"]
    if op is None:
        return _truth(name, positive)
    literal = value.strip("'\"")
    if literal.lower() in ("true", "false"):
        truth = literal.lower() == "true"
        return _truth(name, truth if (op == "==") == positive else not truth)
    verb = "is" if (op == "==") == positive else "is not"
    return f"the {value_words(name)} {verb} {value_words(literal)}"


def _truth(name: str, positive: bool) -> str:
    """A yes/no field as a statement: `speed_is_slow` -> "the speed is slow"."""
    subject, _, predicate = name.partition("_is_")
    if predicate:
        return f"the {value_words(subject)} is {'' if positive else 'not '}{value_words(predicate)}"
    return f"{value_words(name)} is {'true' if positive else 'false'}"


__all__ = ["condition_words"]
