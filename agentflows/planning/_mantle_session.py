"""The signed-in session's own seed fields: what the channel knows about the user that the
skill's tools read as arguments (`project.resident_id` for `get_balance(resident_id)`).

A field marked `seed: true` is set by the channel before the conversation (reference §2),
and only a seeded field reliably reaches memory. A case that opens a signed-in session
(`project.authenticated: true`) without the id of who signed in plays a session no channel
makes: every correct agent then calls the tool with no argument, and a wrong argument
cannot be told from a right one. So the case seeds those fields too, with a value of the
case's test data (a record of `data/` when one matches), and asserts the arguments the
tools are called with. A field some tool writes (a sign-in's lookup) is the tool's, never
seeded; flags (`bool`) and the caller's channel (`channel_fields`) have their own rules.
"""

from __future__ import annotations

from evalcore.definitions import MemoryField, Project, memoized
from evalcore.definitions.skill_model import code_facts, qualify

from ._mantle_tools import step_arguments
from ._mantle_vocab import channel_fields


def _written(project: Project) -> frozenset[str]:
    """Every memory key some tool of the project writes (qualified)."""
    assert project.mantle is not None
    defs = project.mantle
    out: set[str] = set()
    for skill_id in defs.skills:
        for tool in defs.tools_for(skill_id).values():
            out |= {qualify(w.key, skill_id, defs) for w in code_facts(project, tool).writes}
    return frozenset(out)


def session_fields(project: Project, skill_id: str) -> list[MemoryField]:
    """Seed project fields the skill's tools take as arguments that no tool writes."""
    assert project.mantle is not None
    defs = project.mantle
    return list(
        memoized(defs, ("session_fields", skill_id), lambda: _session_fields(project, skill_id))
    )


def _session_fields(project: Project, skill_id: str) -> list[MemoryField]:
    assert project.mantle is not None
    defs = project.mantle
    written = memoized(defs, "tool_written_keys", lambda: _written(project))
    channel = {f.qualified for f in channel_fields(defs)}
    candidates = [
        f
        for f in defs.memory.values()
        if f.seed
        and f.type not in ("bool", "json", "list")
        and f.qualified not in channel
        and f.qualified not in written
    ]
    if not candidates:
        return []
    skill = defs.skills[skill_id]
    read: set[str] = set()
    for block in skill.blocks.values():
        for step in block.steps:
            if step.kind == "execute_tool":
                read |= set(step_arguments(step).values())
    params = {
        p.name
        for tool in defs.tools_for(skill_id).values()
        for p in tool.parameters
        if "ToolContext" not in (p.type or "") and p.name != "context"
    }
    return [
        f
        for f in candidates
        if f.qualified in read or any(f.name == p or f.name.endswith("_" + p) for p in params)
    ]


__all__ = ["session_fields"]
