"""Mantle-specific deterministic fixes: shapes Mantle rejects whose meaning is still clear.

Each rule answers one schema finding and keeps what the author meant; nothing is invented.
The generic rules (`_generic.py`) already fix typo'd ids, lossless coercions, enum case, a
single map where a list belongs and key typos.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .. import pointer as ptr
from ._actions import RepairAction

if TYPE_CHECKING:
    from ..definitions import Project
    from ..findings import Finding

_SESSION = "session."
_SEQUENCE_MEMORY = ("memory_was_set", "memory_was_cleared")


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


MANTLE_RULES = [
    drop_step_on_skill_start,
    strip_session_prefix,
    plain_memory_name_in_sequence,
    drop_value_on_cleared,
]

__all__ = ["MANTLE_RULES"]
