"""Which project a command works on, what it defines, and what casegen understood of one
skill: `sources --json`, `sources --explain SKILL --json` and the MCP tools `list_sources`
and `explain_skill`."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from evalcore.errors import UserError

if TYPE_CHECKING:
    from evalcore.definitions import Project


def resolve_project(project: Path | None) -> Project:
    """`--project` or the nearest enclosing project folder of the working directory."""
    # start-up: yaml and 36 casegen modules
    from evalcore.definitions import find_project, load_project

    if project is not None:
        return load_project(project)
    root = find_project(Path.cwd())
    if root is None:
        raise UserError(
            "no project folder here or above", hint="pass --project DIR (e.g. examples/bank)"
        )
    return load_project(root)


def sources_payload(project: Project) -> dict[str, Any]:
    """A compact, complete inventory of ids (what `--json` prints and MCP returns)."""
    payload: dict[str, Any] = {"root": str(project.root), "kind": project.kind}
    if project.mantle is not None:
        m = project.mantle
        payload["skills"] = [
            {
                "id": s.id,
                "name": s.name,
                "description": s.description,
                "blocks": {b.id: [st.id for st in b.steps] for b in s.blocks.values()},
                "memory": {f.qualified: f.type for f in s.memory.values()},
                "tools": sorted(m.tools_for(s.id)),
                "responses": sorted(s.responses),
                "confirmation_gated": sorted(
                    t for t, c in s.tool_constraints.items() if c.requires_confirmation
                ),
                "handoff": s.is_handoff,
            }
            for s in m.skills.values()
        ]
        payload["memory"] = {
            f.qualified: {"type": f.type, "seed": f.seed} for f in m.memory.values()
        }
        payload["responses"] = sorted(m.responses)
        payload["shared_tools"] = sorted(m.shared_tools)
        payload["mcp_servers"] = list(m.mcp_servers)
    if project.anychat is not None:
        a = project.anychat
        payload["playbooks"] = [
            {
                "id": p.id,
                "name": p.name,
                "default": p.default,
                "tools": p.tools,
                "outcomes": p.outcomes,
                "examples": len(p.examples),
            }
            for p in a.playbooks.values()
        ]
        payload["outreaches"] = [
            {"id": o.id, "playbook": o.playbook, "inputs": o.inputs, "goal": o.goal}
            for o in a.outreaches.values()
        ]
        payload["person_fields"] = sorted(a.person_fields)
        payload["tools"] = sorted(a.tools)
        payload["outcomes"] = list(a.outcomes)
    if project.agent_skills is not None:
        g = project.agent_skills
        payload["agent_skills"] = [
            {"name": s.name, "description": s.description, "references": s.references}
            for s in g.skills.values()
        ]
        payload["fixtures"] = [f.model_dump(mode="json") for f in g.fixtures]
    payload["warnings"] = list(project.warnings)
    return payload


def explain_payload(project: Project, skill_id: str) -> dict[str, Any]:
    """The skill model of one Mantle skill (what `sources --explain SKILL` prints)."""
    # start-up: pydantic, yaml, hashlib and 74 casegen modules
    from evalcore.definitions.skill_model import skill_model

    return skill_model(project, skill_id).model_dump(mode="json")


__all__ = ["explain_payload", "resolve_project", "sources_payload"]
