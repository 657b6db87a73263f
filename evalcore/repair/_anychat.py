"""Repair rules for Anychat cases, on top of the generic ones (ids, case, key typos, types).

Each rule keeps the author's meaning exactly:

- `fix_name_to_id`: a Playbook or Outreach named by its display name becomes its id (lint
  found exactly one definition with that name, `context["by_name"]`).
- `fix_enum_spelling`: an enum value written with other separators or case
  (`ask_time` -> `ask.time`, `apple_messages` -> `appleMessages`, `opt-out` -> `optOut`); only
  when exactly one allowed value matches once case and separators are ignored.
- `fix_kebab_id`: a case `key` or a judge criterion `id` that breaks only the kebab-case
  pattern by case or separators (`Offers_Friday` -> `offers-friday`), unless that id is taken.
- `string_list_rule`: one string where a list of strings is expected (`"textIncludes": "Hi"`)
  becomes a one-item list; the text itself is never split.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from .. import pointer as ptr
from ..lint import as_dict, as_list
from ._generic import wrap_in_list_rule
from .actions import RepairAction, RepairRule

if TYPE_CHECKING:
    from ..definitions import Project
    from ..findings import Finding

_SEPARATORS = re.compile(r"[\s_.\-]+")

#: Anychat keys whose value is a list of strings (or, for `turns`, of turns, text included).
STRING_LISTS = frozenset(
    {
        "tags",
        "turns",
        "knows",
        "outcomes",
        "chipsOnAnyTurn",
        "textIncludes",
        "textExcludes",
        "textMatches",
        "toolsNotCalled",
        "noReplyTo",
        "partsOnLastTurn",
    }
)


def fix_name_to_id(data: Any, finding: Finding, project: Project | None) -> RepairAction | None:
    target = finding.context.get("by_name")
    if not isinstance(target, str) or not isinstance(finding.value, str):
        return None
    return RepairAction(
        code=finding.code,
        path=finding.path,
        before=finding.value,
        after=target,
        reason=f"'{finding.value}' is the display name of '{target}'; cases use the id",
    )


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


_KEBAB_SEPARATORS = re.compile(r"[\s_]+")


def fix_kebab_id(data: Any, finding: Finding, project: Project | None) -> RepairAction | None:
    if finding.context.get("rule") != "pattern" or not isinstance(finding.value, str):
        return None
    from ..dialects.anychat._model import CRITERION_ID_PATTERN, KEY_PATTERN  # import cycle

    tokens = ptr.split(finding.path)
    taken: set[Any] = set()
    if tokens == ["key"]:
        pattern = KEY_PATTERN
    elif len(tokens) == 5 and tokens[:3] == ["expect", "judge", "criteria"] and tokens[4] == "id":
        pattern = CRITERION_ID_PATTERN
        judge = as_dict(as_dict(as_dict(data).get("expect")).get("judge"))
        taken = {as_dict(c).get("id") for c in as_list(judge.get("criteria"))}
    else:
        return None
    fixed = _KEBAB_SEPARATORS.sub("-", finding.value.strip()).lower()
    if fixed == finding.value or fixed in taken or not re.search(pattern, fixed):
        return None
    return RepairAction(
        code=finding.code,
        path=finding.path,
        before=finding.value,
        after=fixed,
        reason=f"'{finding.value}' in kebab-case (lowercase, hyphens) is '{fixed}'",
    )


def string_list_rule(keys: Iterable[str]) -> RepairRule:
    """A rule wrapping a lone string in a list, for the keys in `keys` only."""
    names = frozenset(keys)
    return wrap_in_list_rule(
        lambda key, value: key in names and isinstance(value, str),
        "one string where a list is expected; wrapped in a list",
    )


ANYCHAT_RULES: list[RepairRule] = [
    fix_name_to_id,
    fix_enum_spelling,
    fix_kebab_id,
    string_list_rule(STRING_LISTS),
]

__all__ = [
    "ANYCHAT_RULES",
    "STRING_LISTS",
    "fix_enum_spelling",
    "fix_kebab_id",
    "fix_name_to_id",
    "string_list_rule",
]
