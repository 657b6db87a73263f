"""A revision answered as edits to the case, never the case re-typed.

`revise` used to ask for the whole revised case under the case model's schema; with the
`tools` method that schema is stated in the prompt (about 3,300 tokens for Mantle), which
left an 8k local model no room for the definition. The model now answers `CaseEdits`: a few
`set` / `add` / `remove` operations, each at a JSON Pointer into the case shown (`set` at
`""` replaces the whole document, for a comment that asks for a rewrite). Applying them is
code's: an edit that cannot be applied (no such place) is reported, like a validation
finding, for the next round.
"""

from __future__ import annotations

import copy
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from evalcore import pointer as ptr

#: The operations a revision may make.
CASE_OPS = ("set", "add", "remove")


# Loosely typed on purpose: one odd edit is reported, not a failed answer. (A comment, not
# the docstring: the docstring is the schema's description, sent with every call.)
class CaseEdit(BaseModel):
    """One change at a JSON Pointer into the case."""

    model_config = ConfigDict(extra="ignore")

    op: str = Field(description="set (replace or create), add (append to a list), remove")
    path: str = Field(description='JSON Pointer, e.g. "/scenario/goals/criteria/1"')
    value: Any = None


class CaseEdits(BaseModel):
    """The revision as edits to the case shown; never the whole case re-typed."""

    model_config = ConfigDict(extra="ignore")

    edits: list[CaseEdit] = Field(default_factory=list)


def apply_case_edits(data: Any, edits: list[CaseEdit]) -> tuple[Any, list[str]]:
    """`data` with each edit made in order, and why each edit that could not be was not."""
    out = copy.deepcopy(data)
    problems: list[str] = []
    for number, edit in enumerate(edits, start=1):
        try:
            out = _apply(out, edit)
        except (KeyError, IndexError, ValueError, TypeError) as exc:
            problems.append(f"edit {number} ({edit.op} {edit.path!r}) not applied: {exc!s}")
    return out, problems


def _apply(data: Any, edit: CaseEdit) -> Any:
    if edit.op not in CASE_OPS:
        raise ValueError(f"unknown op {edit.op!r}")
    value = copy.deepcopy(edit.value)
    if edit.path in ("", "/") and edit.op == "set":
        return value
    if edit.op == "remove":
        ptr.remove(data, edit.path)
    elif edit.op == "add":
        target = ptr.resolve(data, edit.path) if ptr.exists(data, edit.path) else None
        if isinstance(target, list):
            target.append(value)
        else:
            _insert(data, edit.path, value)
    else:
        ptr.replace(data, edit.path, value)
    return data


def _insert(data: Any, path: str, value: Any) -> None:
    """JSON Patch's `add`: into a list at its index (or `-`, the end), else as a key."""
    *head, last = ptr.split(path)
    node = ptr.resolve(data, ptr.from_parts(head))
    if isinstance(node, list):
        node.insert(len(node) if last == "-" else int(last), value)
    else:
        node[last] = value


__all__ = ["CASE_OPS", "CaseEdit", "CaseEdits", "apply_case_edits"]
