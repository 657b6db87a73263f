"""What a criterion states, said as a Mantle assertion: review's advice when a criterion is
a lookup against events the judge could only get wrong (`Dialect.structural_check`)."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ...definitions import Project


def structural_check(
    kind: str, name: str | None, *, negated: bool, project: Project | None
) -> str | None:
    if kind == "response":
        key = "bot_did_not_utter" if negated else "bot_uttered"
        return f"assert `{key}: {{utter_name: {name}}}`"
    if kind == "memory":
        key = "memory_was_not_set" if negated else "memory_was_set"
        return f"assert `{key}: [{{name: {name}}}]` (add `value:` to pin the value)"
    if kind == "tool":
        if negated:
            # Mantle has no "tool was not executed" check: the conventions keep that as a
            # criterion next to the assertions that its success never came, so it is not a
            # lookup.
            return None
        return f"assert `tool_executed: {{tool_name: {name}, source: {_source(project, name)}}}`"
    if kind == "skill":
        if not name:  # "activates the skill", none named
            return "use skill_activated / skill_completed with the skill_id"
        if negated:
            return None
        return f"assert `skill_activated` / `skill_completed: {{skill_id: {name}}}`"
    if kind == "block" and not negated:
        return (
            "assert `ordered_block_entered` / `ordered_block_completed` with its skill_id "
            f"and block_id: {name}"
        )
    return None


def _source(project: Project | None, tool: str | None) -> str:
    defs = project.mantle if project is not None else None
    if defs is not None and tool is not None:
        for skill_id in defs.skills:
            found = defs.tools_for(skill_id).get(tool)
            if found is not None:
                return (
                    "mcp, mcp_server: " + str(found.mcp_server)
                    if found.scope == "mcp"
                    else ("local")
                )
    return "local"
