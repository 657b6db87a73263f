"""Mantle-specific deterministic fixes: shapes Mantle rejects whose meaning is still clear.

Each rule answers one schema finding and keeps what the author meant; nothing is invented.
The generic rules (`_generic.py`) already fix typo'd ids, lossless coercions, enum case, a
single map where a list belongs and key typos.
"""

from __future__ import annotations

import copy
from typing import TYPE_CHECKING, Any

from ... import pointer as ptr
from ...repair.actions import RepairAction

if TYPE_CHECKING:
    from ...definitions import Project
    from ...findings import Finding

_SESSION = "session."
_SEQUENCE_MEMORY = ("memory_was_set", "memory_was_cleared")
#: Sequencing steps Rasa rejects that mean no more on their own: the check still holds, only
#: its position is no longer asserted. (An absence, bot_did_not_utter or memory_was_not_set,
#: would become stricter out of the sequence, so those stay for a person.)
_MOVABLE = ("bot_uttered", "tools_within_one_turn")


def _parts(finding: Finding) -> list[str]:
    try:
        return ptr.split(finding.path)
    except ValueError:
        return []


def _value(data: Any, path: str) -> tuple[bool, Any]:
    if not ptr.exists(data, path):
        return False, None
    return True, ptr.resolve(data, path)


def drop_step_on_skill_start(
    data: Any, finding: Finding, project: Project | None
) -> RepairAction | None:
    """`skill_activated` / `skill_completed` carry no step, so a step_id only breaks the file."""
    parts = _parts(finding)
    if finding.code != "schema" or len(parts) < 2 or parts[-1] != "step_id":
        return None
    if parts[-2] not in ("skill_activated", "skill_completed"):
        return None
    found, value = _value(data, finding.path)
    if not found:
        return None
    return RepairAction(
        code=finding.code,
        path=finding.path,
        before=value,
        after=None,
        op="remove",
        reason=f"{parts[-2]} events carry no step; step_id is rejected and matched nothing",
    )


def _is_memory_name_place(parts: list[str], key: bool) -> bool:
    if key:
        return len(parts) >= 2 and parts[-2] == "initial_slots"
    if parts and parts[-1] == "name":
        return True
    return len(parts) >= 3 and parts[-1] in _SEQUENCE_MEMORY and parts[-3] == "sequencing"


def strip_session_prefix(
    data: Any, finding: Finding, project: Project | None
) -> RepairAction | None:
    """Memory names in scenarios never take `session.`; the rest of the name is the name."""
    name = finding.value
    if finding.code != "schema" or not isinstance(name, str) or not name.startswith(_SESSION):
        return None
    stripped = name[len(_SESSION) :]
    key = finding.context.get("rule") == "unknown-key"
    parts = _parts(finding)
    if not stripped or not _is_memory_name_place(parts, key):
        return None
    reason = f"memory names never take a session. prefix; '{name}' is '{stripped}'"
    if key:
        found, parent = _value(data, ptr.parent(finding.path))
        if not found or not isinstance(parent, dict) or name not in parent or stripped in parent:
            return None
        return RepairAction(
            code=finding.code,
            path=finding.path,
            before=name,
            after=stripped,
            op="rename",
            reason=reason,
        )
    found, value = _value(data, finding.path)
    if not found or value != name:
        return None
    return RepairAction(
        code=finding.code, path=finding.path, before=name, after=stripped, reason=reason
    )


def plain_memory_name_in_sequence(
    data: Any, finding: Finding, project: Project | None
) -> RepairAction | None:
    """Inside sequencing, `memory_was_set: [{name: x}]` is written `memory_was_set: x`."""
    parts = _parts(finding)
    if finding.code != "schema" or finding.context.get("rule") != "type":
        return None
    if len(parts) < 3 or parts[-1] not in _SEQUENCE_MEMORY or parts[-3] != "sequencing":
        return None
    found, value = _value(data, finding.path)
    if not found:
        return None
    entry = value[0] if isinstance(value, list) and len(value) == 1 else value
    if not isinstance(entry, dict) or set(entry) != {"name"} or not isinstance(entry["name"], str):
        return None  # a value (or several names) cannot be said in the plain form
    return RepairAction(
        code=finding.code,
        path=finding.path,
        before=value,
        after=entry["name"],
        reason=f"inside sequencing, {parts[-1]} takes the plain memory name",
    )


def drop_value_on_cleared(
    data: Any, finding: Finding, project: Project | None
) -> RepairAction | None:
    """`memory_was_cleared` compares no value; a written one only makes the file invalid."""
    parts = _parts(finding)
    if finding.code != "schema" or len(parts) < 3 or parts[-1] != "value":
        return None
    if parts[-3] != "memory_was_cleared":
        return None
    found, value = _value(data, finding.path)
    if not found:
        return None
    return RepairAction(
        code=finding.code,
        path=finding.path,
        before=value,
        after=None,
        op="remove",
        reason="memory_was_cleared checks only that the name was cleared; value is not allowed",
    )


def move_out_of_sequence(
    data: Any, finding: Finding, project: Project | None
) -> RepairAction | None:
    """Rasa rejects `bot_uttered` (and `tools_within_one_turn`) inside `sequencing`: each such
    step becomes its own assertion right after the sequencing, whose other steps keep their
    order. One action per sequencing, recorded as the rewritten assertions list."""
    parts = _parts(finding)
    if finding.code != "schema" or len(parts) < 5 or parts[-1] not in _MOVABLE:
        return None
    if parts[-3] != "sequencing" or parts[-5] != "assertions" or not parts[-4].isdigit():
        return None
    where = ptr.from_parts(parts[:-4])
    found, assertions = _value(data, where)
    index = int(parts[-4])
    if not found or not isinstance(assertions, list) or index >= len(assertions):
        return None
    steps = assertions[index].get("sequencing") if isinstance(assertions[index], dict) else None
    if not isinstance(steps, list):
        return None
    moved = [s for s in steps if isinstance(s, dict) and len(s) == 1 and next(iter(s)) in _MOVABLE]
    kept = [s for s in steps if s not in moved]
    if not moved:
        return None
    after = copy.deepcopy(assertions)
    tail = [copy.deepcopy(s) for s in moved if s not in assertions]
    after[index : index + 1] = ([{"sequencing": copy.deepcopy(kept)}] if kept else []) + tail
    names = ", ".join(dict.fromkeys(next(iter(s)) for s in moved))
    return RepairAction(
        code=finding.code,
        path=where,
        before=assertions,
        after=after,
        reason=f"Rasa rejects {names} inside sequencing; moved out as its own assertion "
        "(asserted anywhere in the conversation; the other steps keep their order)",
    )


def tool_called_map(data: Any, finding: Finding, project: Project | None) -> RepairAction | None:
    """An `expected_tools` (or `tool_group`) item written as a bare tool name is the map
    `{tool_called: NAME}`, the only form Rasa reads."""
    parts = _parts(finding)
    if finding.code != "schema" or len(parts) < 2 or not parts[-1].isdigit():
        return None
    if parts[-2] not in ("expected_tools", "tool_group"):
        return None
    found, value = _value(data, finding.path)
    if not found or not isinstance(value, str) or not value.strip():
        return None
    return RepairAction(
        code=finding.code,
        path=finding.path,
        before=value,
        after={"tool_called": value.strip()},
        reason=f"{parts[-2]} items are maps; a bare tool name is written {{tool_called: NAME}}",
    )


MANTLE_RULES = [
    drop_step_on_skill_start,
    strip_session_prefix,
    plain_memory_name_in_sequence,
    drop_value_on_cleared,
    move_out_of_sequence,
    tool_called_map,
]

__all__ = ["MANTLE_RULES"]
