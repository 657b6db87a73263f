"""The shapes of secrets in text and of variables that hold them: `*_KEY`/`*_TOKEN` names,
`Bearer` and `Authorization:` headers, provider key prefixes (`sk-`, `ghp_`, `xoxb-`,
`AKIA`), and credentials in a URL. Shapes providers publish, not English."""

from __future__ import annotations

import re

from .. import phrase

#: Variables whose values are secrets by name (matched on the upper-cased name).
SECRET_NAME = phrase(
    "notation.secret_shapes.secret_name",
    r"(?:^OPENAI_API_KEY$|_KEY$|_TOKEN$|_SECRET$|PASSWORD$|^CASEGEN_.*KEY)",
    matches=("OPENAI_API_KEY", "SERVICE_TOKEN", "DB_PASSWORD", "CASEGEN_JUDGE_KEY_FILE"),
    misses=("HOME", "KEYBOARD_LAYOUT", "TOKEN_COUNT"),
)
#: A credential after an HTTP auth scheme, the scheme as group 1.
BEARER = phrase(
    "notation.secret_shapes.bearer",
    r"\b(Bearer|Authorization:\s*(?:Basic|Token))\s+[A-Za-z0-9._~+/=-]{8,}",
    re.IGNORECASE,
    matches=("Authorization: Bearer abcdef123456", "authorization: basic dXNlcjpwYXNz"),
    misses=("Bearer short", "the bearer of the card"),
)
#: Provider API keys and tokens by their published prefixes and lengths.
TOKEN = phrase(
    "notation.secret_shapes.token",
    r"\b(?:sk|pk|rk)-(?:[A-Za-z0-9]+-)*[A-Za-z0-9_-]{16,}"
    r"|\b(?:ghp|gho|ghu|ghs|ghr|github_pat)_[A-Za-z0-9_]{20,}"
    r"|\bxox[abprs]-[A-Za-z0-9-]{10,}"
    r"|\bAKIA[0-9A-Z]{16}\b",
    matches=(
        "key sk-proj-abcdefghijklmnop1234",
        "ghp_abcdefghijklmnopqrstuvwx",
        "xoxb-1234567890-abc",
        "AKIAABCDEFGHIJKLMNOP",
    ),
    misses=("sk-short", "ghp_short", "AKIA1234", "task-abcdefghijklmnopqrstu"),
)
#: The user and password of a URL (`https://user:pass@host`), the scheme as group 1.
USERINFO = phrase(
    "notation.secret_shapes.userinfo",
    r"\b([a-zA-Z][a-zA-Z0-9+.-]*://)[^/\s@:]+(?::[^/\s@]*)?@",
    matches=("https://user:pass@example.org/x", "redis://admin@db:6379"),
    misses=("https://example.org/x@y", "mail me at a@example.org"),
)
#: What every match of the three patterns above contains (same flags): text without any of
#: it skips them.
MAYBE_SECRET = phrase(
    "notation.secret_shapes.maybe_secret",
    r"(?i:bearer|authorization)|[spr]k-|gh[pousr]_|github_pat_|xox[abprs]-|AKIA|://",
    matches=("Authorization: x", "sk-1", "https://h", "AKIA"),
    misses=("an order id 42", "akia", "sk_live"),
)
