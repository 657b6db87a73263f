"""What a model is told about a skill: its skill.md, and every real id a scenario may use.

The ids are the antidote to hallucinated names: a model that sees the exact skill, block,
memory, tool and response names (with memory types and enum values, tool parameters) writes
them; lint and repair catch the rest.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .._sources import first_sentence, read_definition

if TYPE_CHECKING:
    from ...definitions import MantleDefinitions, MemoryField, Project, Response, ToolDef


def definition_text(project: Project, source: str) -> str:
    """The skill's skill.md as written (its parsed body where the file cannot be read)."""
    skill = _mantle(project).skills[source]
    return read_definition(project.root / skill.path / "skill.md") or skill.body


def definition_ids(project: Project, source: str) -> dict[str, Any]:
    return _ids(_mantle(project), source)


def _ids(defs: MantleDefinitions, source: str) -> dict[str, Any]:
    """The names a case may use. The skill's tool constraints are not repeated: they are
    its skill.md frontmatter, which every prompt showing these ids shows beside them."""
    skill = defs.skills[source]
    memory = list(skill.memory.values()) + list(defs.memory.values())
    responses = {**defs.responses, **skill.responses}
    return {
        "skill": source,
        "skills": [
            {"id": s.id, "name": s.name, "description": first_sentence(s.description)}
            for s in defs.skills.values()
            if not s.disabled
        ],
        "blocks": {
            block.id: [_step(step.id, step.kind, step.target) for step in block.steps]
            for block in skill.blocks.values()
        },
        "memory": [_memory(m) for m in memory],
        "tools": [_tool(t) for t in defs.tools_for(source).values()],
        "responses": [_response(r) for r in responses.values()],
    }


def _step(step_id: str, kind: str, target: Any) -> dict[str, Any]:
    out: dict[str, Any] = {"id": step_id, "kind": kind}
    if isinstance(target, str | dict) and kind != "instructions":
        out["target"] = target
    return out


def _memory(field: MemoryField) -> dict[str, Any]:
    out: dict[str, Any] = {"name": field.qualified, "type": field.type}
    if field.enum_values:
        out["enum_values"] = field.enum_values
    if field.seed:
        out["seed"] = True
    if field.description:
        out["description"] = first_sentence(field.description)
    return out


def _tool(tool: ToolDef) -> dict[str, Any]:
    out: dict[str, Any] = {
        "name": tool.name,
        "source": "mcp" if tool.scope == "mcp" else "local",
    }
    if tool.mcp_server:
        out["mcp_server"] = tool.mcp_server
    if tool.description:
        out["description"] = first_sentence(tool.description)
    out["parameters"] = [
        {
            k: v
            for k, v in {
                "name": p.name,
                "type": p.type,
                "required": p.required,
                "choices": p.choices,
            }.items()
            if v is not None
        }
        for p in tool.parameters
    ]
    return out


def _response(response: Response) -> dict[str, Any]:
    texts = [v.text for v in response.variants if v.text]
    out: dict[str, Any] = {"name": response.name, "scope": response.scope}
    if texts:
        out["text"] = texts[-1]  # the unconditional variant usually comes last
    return out


def _mantle(project: Project) -> MantleDefinitions:
    if project.mantle is None:
        raise ValueError(f"{project.root} is not a Mantle project")
    return project.mantle
