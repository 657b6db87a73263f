"""Mantle's condition syntax (`requires`, `next` branches, `if:` lines): `session.<ns>.<key>`
names, the `and`/`or` joints, and comparisons of a name with a literal (`'x'`, `"x"`,
numbers, `true`/`false`). The keywords are the format's, not English."""

from __future__ import annotations

import re

from .. import phrase

#: A name a condition reads (`session.order.status`), without the `session.` prefix.
SESSION_NAME = phrase(
    "notation.mantle_conditions.session_name",
    r"(?<![\w.'\"])session\.([A-Za-z_]\w*\.[A-Za-z_]\w*)",
    matches=("session.order.status == 'open'", "not session.card.lost"),
    misses=("'session.order.status'", "x.session.order.status", "session.order"),
)
#: The tokens that split a condition into conjuncts: brackets and a spaced `and`/`or`.
JOINT = phrase(
    "notation.mantle_conditions.joint",
    r"[()]|\s+(and|or)\s+",
    matches=("session.a.b and session.c.d", "(session.a.b)", "a or b"),
    misses=("session.a.band", "session.order.status"),
)
#: `session.<key> <op> <number>`: a number compared with a literal.
NUMBER_COMPARISON = phrase(
    "notation.mantle_conditions.number_comparison",
    r"session\.(?P<key>[\w.]+)\s*(?P<op>>=|<=|==|!=|>|<)\s*(?P<number>-?\d+(?:\.\d+)?)(?![\w.])",
    matches=("session.stay.rooms > 6", "session.cart.total<=-2.5"),
    misses=("session.stay.rooms > six", "session.stay.rooms > 6.x", "rooms > 6"),
)

_LITERAL = r"('[^']*'|\"[^\"]*\"|-?\d+(?:\.\d+)?|true|false)"


def _compared_source(key: str) -> str:
    return rf"session\.{re.escape(key)}\s*(?:==|!=)\s*" + _LITERAL


phrase(
    "notation.mantle_conditions.compared",
    _compared_source("order.status"),
    matches=("session.order.status == 'open'", "session.order.status!=true"),
    misses=("session.order.status > 3", "session.order.state == 'open'"),
)


def compared(key: str) -> re.Pattern[str]:
    """`session.<key>` compared (`==` or `!=`) with a literal, the literal as group 1
    (`notation.mantle_conditions.compared`)."""
    return re.compile(_compared_source(key))


def _equal_source(key: str) -> str:
    return rf"session\.{re.escape(key)}\s*==\s*" + _LITERAL


phrase(
    "notation.mantle_conditions.equal",
    _equal_source("order.status"),
    matches=("session.order.status == 'open'", 'session.order.status=="lost"'),
    misses=("session.order.status != 'open'", "session.order.statuses == 'open'"),
)


def equal(key: str) -> re.Pattern[str]:
    """`session.<key>` equal to a literal, the literal as group 1
    (`notation.mantle_conditions.equal`)."""
    return re.compile(_equal_source(key))


def _compared_short_source(short: str) -> str:
    return rf"(?:session\.)?[\w-]*\.?{short}\s*==\s*(?:'([^']*)'|\"([^\"]*)\"|(\w+))"


phrase(
    "notation.mantle_conditions.equal_short",
    _compared_short_source(re.escape("status")),
    matches=("session.order.status == 'lost'", "order.status==open", 'status == "x"'),
    misses=("session.order.status != 'lost'", "session.order.state == 'lost'"),
)


def equal_short(short: str) -> re.Pattern[str]:
    """A key named by its last part `short` (a regex, escaped by the caller), with or
    without its namespace and `session.`, equal to a quoted or bare value, the value in one
    of groups 1-3 (`notation.mantle_conditions.equal_short`)."""
    return re.compile(_compared_short_source(short))


#: A condition that holds when something is absent or false: a `not`, a `!=`, or an
#: equality with `false`.
NEGATED = phrase(
    "notation.mantle_conditions.negated",
    r"\bnot\b|!=|==\s*(?:false|False)\b",
    matches=("not session.card.lost", "session.order.status != 'open'", "session.a.b == false"),
    misses=("session.card.lost", "session.a.b == true", "session.notes.count > 2"),
)
