"""Repair rules for Anychat cases, on top of the generic ones (ids, case, key typos, types).

Each rule keeps the author's meaning exactly:

- `fix_name_to_id`: a Playbook or Outreach named by its display name becomes its id (lint
  found exactly one definition with that name, `context["by_name"]`).
- `fix_enum_spelling` (`evalcore.repair`): an enum value written with other separators or
  case (`ask_time` -> `ask.time`, `apple_messages` -> `appleMessages`, `opt-out` -> `optOut`).
- `fix_kebab_id`: a case `key` or a judge criterion `id` that breaks only the kebab-case
  pattern by case or separators (`Offers_Friday` -> `offers-friday`), unless that id is taken.
- `string_list_rule(STRING_LISTS)` (`evalcore.repair`): one string where a list of strings is
  expected (`"textIncludes": "Hi"`) becomes a one-item list; the text itself is never split.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from ... import pointer as ptr
from ...lint import as_dict, as_list
from ...repair import fix_enum_spelling, string_list_rule
from ...repair.actions import RepairAction, RepairRule
from ._model import CRITERION_ID_PATTERN, KEY_PATTERN

if TYPE_CHECKING:
    from ...definitions import Project
    from ...findings import Finding

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


_KEBAB_SEPARATORS = re.compile(r"[\s_]+")


def fix_kebab_id(data: Any, finding: Finding, project: Project | None) -> RepairAction | None:
    if finding.context.get("rule") != "pattern" or not isinstance(finding.value, str):
        return None
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


ANYCHAT_RULES: list[RepairRule] = [
    fix_name_to_id,
    fix_enum_spelling,
    fix_kebab_id,
    string_list_rule(STRING_LISTS),
]

__all__ = ["ANYCHAT_RULES", "STRING_LISTS", "fix_kebab_id", "fix_name_to_id"]
