"""A Mantle trigger that holds only while one key is empty: `not username`,
`not (session.login.username)`. The reference agent reads which key it waits on."""

from __future__ import annotations

from .. import phrase

#: `not <key>` alone, the key (dotted, `session.` dropped) as `key`.
NOT_KEY = phrase(
    "notation.empty_conditions.not_key",
    r"^\s*not\s+\(?\s*(?:session\.)?(?P<key>[\w.]+)\s*\)?\s*$",
    matches=("not username", "not (session.login.username)", " not session.login.username "),
    misses=("not username and not email", "username", "session.login.username == ''"),
)
