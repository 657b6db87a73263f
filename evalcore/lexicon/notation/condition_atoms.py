"""One part of a Mantle condition as the drafter words it for a judge: a session value,
maybe negated, maybe compared with a literal (`not session.order.paid`,
`session.feedback.rating == 'down'`)."""

from __future__ import annotations

from .. import phrase

#: A whole condition atom: `not`, the session value's name, the operator and the literal.
ATOM = phrase(
    "notation.condition_atoms.atom",
    r"^(?P<not>not\s+)?session\.\w+\.(?P<name>\w+)"
    r"(?:\s*(?P<op>==|!=)\s*(?P<value>'[^']*'|\"[^\"]*\"|-?\d+(?:\.\d+)?|true|false|True|False))?$",
    matches=("not session.order.paid", "session.feedback.rating == 'down'", "session.a.b != 3"),
    misses=("session.order", "session.order.paid > 3", "project.order.paid"),
)
