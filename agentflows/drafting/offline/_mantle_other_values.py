"""Prose about other values of a field than the case's: its rules are no part of the case.

A paragraph can be about some values of a field only ("db:write and k8s:exec on a tier-1
service need a second approver; say that the request goes to the owning team's leads"),
with nothing but its words to say so (the `if:` above it only asks whether scopes are set).
Where the case set the field to other values (`logs:read`), a criterion taken from it fails
every correct agent, who follows the paragraph only for the values it names. The values are
the field's ids: its `enum_values` and, for a field whose description lists them, the
tokens of the description shaped like the case's own value (`logs:read` has the shape
word, colon, word), where the case's value is among them (else they are examples of a
format: `v2.41.0, v5.2.0-rc.1` for a release tag). Only ids with a separator in them
count: a plain word ("pay", "balance") is too often a word of the prose too.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from evalcore.definitions import MantleDefinitions, memoized

#: The characters that join the parts of an id (`logs:read`, `payment_plan`, `tier-1`).
_JOINERS = ":_/-."


def about_other_values(
    defs: MantleDefinitions, skill: str, text: str, memory: Mapping[str, Any]
) -> bool:
    """Whether paragraph `text` names ids of a field of `skill` that the case set, and none
    of the values it set them to."""
    prefix = f"{skill}."
    for name, value in memory.items():
        if not name.startswith(prefix):
            continue
        own = _values(value)
        ids = _kept_ids(defs, name, own)
        if not own or len(ids) < 2:
            continue
        named = {v for v in ids if _names(text, v)}
        if named and not named & own:
            return True
    return False


def _values(value: Any) -> set[str]:
    items = value if isinstance(value, list | tuple) else [value]
    return {str(v) for v in items if isinstance(v, str) and _joined(v)}


def _kept_ids(defs: MantleDefinitions, name: str, own: set[str]) -> frozenset[str]:
    """`_ids`, once per loaded project, field and values: every paragraph of every case
    is read against the same fields."""
    key = ("other_values", name, frozenset(own))
    return memoized(defs, key, lambda: frozenset(_ids(defs, name, own)))


def _ids(defs: MantleDefinitions, name: str, own: set[str]) -> set[str]:
    """The field's ids with a separator: its enum values, else the description's tokens
    shaped like the case's values."""
    field = defs.memory_field(name)
    if field is None:
        return set()
    if field.enum_values:
        return {str(v) for v in field.enum_values if _joined(str(v))}
    shapes = {re.sub(r"\w+", r"\\w+", re.escape(v)) for v in own}
    found: set[str] = set()
    for shape in shapes:
        found |= set(re.findall(rf"(?<![\w{re.escape(_JOINERS)}]){shape}", field.description or ""))
    found = {f for f in found if _joined(f)}
    # a list the case's own value is on names the values to pick from; one it is not on
    # gives examples of a format (`v2.41.0, v5.2.0-rc.1` for a release tag)
    return found if own & found else set()


def _joined(value: str) -> bool:
    return any(c in value for c in _JOINERS) and not value.startswith(tuple(_JOINERS))


def _names(text: str, value: str) -> bool:
    return re.search(rf"(?<![\w:/.-]){re.escape(value)}(?![\w:/-])", text) is not None


__all__ = ["about_other_values"]
