"""Fixes that follow from a finding alone, for every dialect.

They read the machine-readable `Finding.context` that schema translation and lint attach:

- `{"candidates": [...]}`: an unknown id; replaced by the unique close real id.
- `{"candidates": [...], "key": True}`: the unknown id is a mapping key; the key is renamed.
- `{"candidates": [...], "match": "case"}`: only a case-insensitive exact match is accepted.
- `{"coerce_to": "bool"|"int"|"float"}`: a value of the wrong type, converted when lossless.
- schema rules `type` (wrap a single map in a list, lossless scalar coercion), `enum` (case),
  `unknown-key` (a typo of an allowed key).

Two more a dialect opts into with its `repair_rules` (its format allows what they assume):
`fix_enum_spelling`, an enum value written with other separators or case (`opt-out` ->
`optOut`) where exactly one allowed value matches once both are ignored, and
`string_list_rule(keys)`, one string where those keys take a list of strings.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any

from .. import pointer as ptr
from ..suggest import unique_close_match
from .actions import RepairAction, RepairRule

if TYPE_CHECKING:
    from ..definitions import Project
    from ..findings import Finding

_TYPE_NAMES = {
    "bool": "a boolean",
    "boolean": "a boolean",
    "int": "an integer",
    "integer": "an integer",
    "float": "a number",
    "number": "a number",
}
_INT = re.compile(r"^[-+]?\d+$")
_FLOAT = re.compile(r"^[-+]?(\d+\.\d*|\.\d+|\d+)([eE][-+]?\d+)?$")


def coerce_lossless(value: Any, target: str) -> tuple[bool, Any]:
    """Convert a string to `target` only when nothing is lost (`"2"` → 2, `"true"` → True).

    `"010"` is not an int (the leading zero would be lost) and `"yes"` is not a bool.
    """
    if isinstance(value, float) and target in ("int", "integer") and value.is_integer():
        return True, int(value)
    if not isinstance(value, str):
        return False, None
    text = value.strip()
    if target in ("bool", "boolean") and text.lower() in ("true", "false"):
        return True, text.lower() == "true"
    if target in ("int", "integer") and _INT.match(text) and str(int(text)) == text.lstrip("+"):
        return True, int(text)
    if target in ("float", "number") and _FLOAT.match(text):
        if target == "number" and _INT.match(text) and str(int(text)) == text.lstrip("+"):
            return True, int(text)
        return True, float(text)
    return False, None


def fix_unknown_id(data: Any, finding: Finding, project: Project | None) -> RepairAction | None:
    candidates = finding.context.get("candidates")
    if not candidates or not isinstance(finding.value, str):
        return None
    if finding.context.get("match") == "case":
        same = [c for c in candidates if isinstance(c, str) and c.lower() == finding.value.lower()]
        target = same[0] if len(same) == 1 else None
    else:
        target = unique_close_match(finding.value, [c for c in candidates if isinstance(c, str)])
    if target is None or target == finding.value:
        return None
    if finding.context.get("key"):
        return RepairAction(
            code=finding.code,
            path=finding.path,
            before=finding.value,
            after=target,
            op="rename",
            reason=f"'{finding.value}' is not defined; '{target}' is the one close match",
        )
    return RepairAction(
        code=finding.code,
        path=finding.path,
        before=finding.value,
        after=target,
        reason=f"'{finding.value}' is not defined; '{target}' is the one close match",
    )


def fix_coercion(data: Any, finding: Finding, project: Project | None) -> RepairAction | None:
    target = finding.context.get("coerce_to")
    if target is None and finding.context.get("rule") == "type":
        expected = finding.context.get("expected", [])
        target = next((t for t in expected if t in ("boolean", "integer", "number")), None)
    if target is None or not ptr.exists(data, finding.path):
        return None
    value = ptr.resolve(data, finding.path)
    ok, converted = coerce_lossless(value, target)
    if not ok:
        return None
    return RepairAction(
        code=finding.code,
        path=finding.path,
        before=value,
        after=converted,
        reason=f"{value!r} written as text; the field takes {_TYPE_NAMES.get(target, target)}",
    )


def wrap_in_list_rule(accept: Callable[[str, Any], bool], reason: str) -> RepairRule:
    """A rule that wraps a lone value in a list where the schema expects an array, for the
    values `accept(key, value)` allows (a list of one item keeps the meaning; splitting a
    string never would)."""

    def fix_wrap_in_list(
        data: Any, finding: Finding, project: Project | None
    ) -> RepairAction | None:
        if finding.context.get("rule") != "type" or finding.context.get("expected") != ["array"]:
            return None
        if not finding.path or not ptr.exists(data, finding.path):
            return None
        value = ptr.resolve(data, finding.path)
        if not accept(ptr.split(finding.path)[-1], value):
            return None
        return RepairAction(
            code=finding.code, path=finding.path, before=value, after=[value], reason=reason
        )

    return fix_wrap_in_list


fix_wrap_in_list = wrap_in_list_rule(
    lambda key, value: isinstance(value, dict),
    "a single item where a list is expected; wrapped in a list",
)


def fix_enum_case(data: Any, finding: Finding, project: Project | None) -> RepairAction | None:
    if finding.context.get("rule") != "enum" or not isinstance(finding.value, str):
        return None
    allowed = [a for a in finding.context.get("allowed", []) if isinstance(a, str)]
    same = [a for a in allowed if a.lower() == finding.value.lower()]
    if len(same) != 1 or not ptr.exists(data, finding.path):
        return None
    if ptr.resolve(data, finding.path) != finding.value:
        return None
    return RepairAction(
        code=finding.code,
        path=finding.path,
        before=finding.value,
        after=same[0],
        reason=f"'{finding.value}' differs from the allowed '{same[0]}' only in case",
    )


def fix_key_typo(data: Any, finding: Finding, project: Project | None) -> RepairAction | None:
    if finding.context.get("rule") != "unknown-key" or not isinstance(finding.value, str):
        return None
    allowed = finding.context.get("allowed", [])
    target = unique_close_match(finding.value, allowed)
    if target is None or not ptr.exists(data, finding.path):
        return None
    parent = ptr.resolve(data, ptr.parent(finding.path))
    if not isinstance(parent, dict) or target in parent:
        return None
    return RepairAction(
        code=finding.code,
        path=finding.path,
        before=finding.value,
        after=target,
        op="rename",
        reason=f"unknown key '{finding.value}' is a typo of '{target}'",
    )


GENERIC_RULES = [fix_unknown_id, fix_coercion, fix_wrap_in_list, fix_enum_case, fix_key_typo]

_SEPARATORS = re.compile(r"[\s_.\-]+")


def _squash(text: str) -> str:
    return _SEPARATORS.sub("", text).lower()


def fix_enum_spelling(data: Any, finding: Finding, project: Project | None) -> RepairAction | None:
    if finding.context.get("rule") != "enum" or not isinstance(finding.value, str):
        return None
    allowed = [a for a in finding.context.get("allowed", []) if isinstance(a, str)]
    if any(a.lower() == finding.value.lower() for a in allowed):
        return None  # a case-only difference: the generic rule says so more plainly
    same = [a for a in allowed if _squash(a) == _squash(finding.value)]
    if len(same) != 1 or not _squash(finding.value):
        return None
    return RepairAction(
        code=finding.code,
        path=finding.path,
        before=finding.value,
        after=same[0],
        reason=f"'{finding.value}' is '{same[0]}' spelt with other separators or case",
    )


def string_list_rule(keys: Iterable[str]) -> RepairRule:
    """A rule wrapping a lone string in a list, for the keys in `keys` only."""
    names = frozenset(keys)
    return wrap_in_list_rule(
        lambda key, value: key in names and isinstance(value, str),
        "one string where a list is expected; wrapped in a list",
    )
