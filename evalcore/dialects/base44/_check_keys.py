"""The keys each base44 check type reads: the one table the runner, lint and docs agree on.

The runner reads exactly these keys (`evalcore/runner/checks/_base44.py`); `validate` warns
about any other key of a check (a typo such as `filepath` silently turns a check off);
docs/checks.md lists the same fields, and a test holds the three together. It is the
dialect's table, so it lives in the dialect's package. No imports: the dialect's lint reads
it without loading the runner.
"""

from __future__ import annotations

#: Keys every check may have.
COMMON_KEYS: tuple[str, ...] = ("type", "description")

_CONFIG = ("filePath", "target", "expectedValid")

#: Per check type, the keys besides `COMMON_KEYS` that its evaluator reads.
CHECK_KEYS: dict[str, tuple[str, ...]] = {
    "contains": ("value",),
    "file-exists": ("filePath",),
    "file-content": ("filePath", "pattern", "value", "flags"),
    "file-content-excluded": ("filePath", "pattern", "value", "flags"),
    "valid-json": ("filePath", "strict"),
    "command-passes": ("command", "timeout"),
    "json-schema": ("schema", "filePath"),
    "entity-config": _CONFIG,
    "agent-config": _CONFIG,
    "function-def": _CONFIG,
}


def accepted_keys(check_type: object) -> tuple[str, ...]:
    """The keys a check of `check_type` may have; every known key for an unknown type."""
    if isinstance(check_type, str) and check_type in CHECK_KEYS:
        return COMMON_KEYS + CHECK_KEYS[check_type]
    every = dict.fromkeys(key for keys in CHECK_KEYS.values() for key in keys)
    return COMMON_KEYS + tuple(every)


__all__ = ["CHECK_KEYS", "COMMON_KEYS", "accepted_keys"]
