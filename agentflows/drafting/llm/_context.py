"""What the model is told about a source: its definition text and every real id it may use.

The ids are the antidote to hallucinated names: a model that sees the exact skill, block,
memory, tool and response names (with memory types and enum values, tool parameters) writes
them; lint and repair catch the rest. Only the `Project` and the definition files are read.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from evalcore.definitions import (
    AgentSkillsDefinitions,
    AnychatDefinitions,
    MantleDefinitions,
    MemoryField,
    Project,
    Response,
    ToolDef,
)

#: Definition files longer than this are cut (with a note), to keep prompts bounded.
MAX_DEFINITION_CHARS = 40_000


def definition_text(project: Project, dialect: str, source: str) -> str:
    """The source's definition as written: skill.md, the playbook YAML or SKILL.md."""
    if dialect == "mantle":
        skill = _mantle(project).skills[source]
        text = _read(project.root / skill.path / "skill.md") or skill.body
    elif dialect == "anychat":
        playbook = _anychat(project).playbooks[source]
        file = playbook.source.file if playbook.source else None
        text = (_read(project.root / file) if file else None) or playbook.body
    elif dialect == "base44":
        agent_skill = _agent_skills(project).skills[source]
        text = _read(project.root / agent_skill.path / "SKILL.md") or agent_skill.body
    else:
        raise ValueError(f"no definition text for dialect '{dialect}'")
    if len(text) > MAX_DEFINITION_CHARS:
        text = text[:MAX_DEFINITION_CHARS] + "\n[… definition cut here for length …]"
    return text


def definition_ids(project: Project, dialect: str, source: str) -> dict[str, Any]:
    """Every real id a case for `source` may use, as JSON-ready data."""
    if dialect == "mantle":
        return _mantle_ids(_mantle(project), source)
    if dialect == "anychat":
        return _anychat_ids(_anychat(project), source)
    if dialect == "base44":
        return _base44_ids(_agent_skills(project), source)
    raise ValueError(f"no ids for dialect '{dialect}'")


# --- Mantle -------------------------------------------------------------------------------


def _mantle_ids(defs: MantleDefinitions, source: str) -> dict[str, Any]:
    skill = defs.skills[source]
    memory = list(skill.memory.values()) + list(defs.memory.values())
    responses = {**defs.responses, **skill.responses}
    return {
        "skill": source,
        "skills": [
            {"id": s.id, "name": s.name, "description": _first_sentence(s.description)}
            for s in defs.skills.values()
            if not s.disabled
        ],
        "blocks": {
            block.id: [_step(step.id, step.kind, step.target) for step in block.steps]
            for block in skill.blocks.values()
        },
        "memory": [_memory(m) for m in memory],
        "tools": [_tool(t) for t in defs.tools_for(source).values()],
        "tool_constraints": {
            name: {k: v for k, v in constraint.model_dump(exclude_none=True).items() if k != "tool"}
            for name, constraint in skill.tool_constraints.items()
        },
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
        out["description"] = _first_sentence(field.description)
    return out


def _tool(tool: ToolDef) -> dict[str, Any]:
    out: dict[str, Any] = {
        "name": tool.name,
        "source": "mcp" if tool.scope == "mcp" else "local",
    }
    if tool.mcp_server:
        out["mcp_server"] = tool.mcp_server
    if tool.description:
        out["description"] = _first_sentence(tool.description)
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


# --- Anychat ------------------------------------------------------------------------------


def _anychat_ids(defs: AnychatDefinitions, source: str) -> dict[str, Any]:
    playbook = defs.playbooks[source]
    return {
        "playbook": source,
        "playbook_tools": playbook.tools,
        "playbook_outcomes": playbook.outcomes,
        "playbook_pickers": playbook.pickers,
        "playbooks": [
            {"id": p.id, "name": p.name, "activation": p.activation, "default": p.default}
            for p in defs.playbooks.values()
        ],
        "default_playbook": defs.default_playbook,
        "outreaches": [
            {"id": o.id, "playbook": o.playbook, "inputs": o.inputs, "opener": o.opener}
            for o in defs.outreaches.values()
        ],
        "person_fields": [
            {
                k: v
                for k, v in {
                    "key": f.key,
                    "type": f.type,
                    "choices": f.choices,
                    "builtin": f.builtin,
                }.items()
                if v is not None
            }
            for f in defs.person_fields.values()
        ],
        "tools": [
            {"name": t.name, "description": t.description, "parameters": t.parameters}
            for t in defs.tools.values()
        ],
        "outcomes": defs.outcomes,
        "channels": defs.channels,
        "consent_required": defs.consent_required,
    }


# --- Agent Skills (base44) ----------------------------------------------------------------


def _base44_ids(defs: AgentSkillsDefinitions, source: str) -> dict[str, Any]:
    skill = defs.skills[source]
    return {
        "skill": source,
        "references": skill.references,
        "skills": [
            {"name": s.name, "description": _first_sentence(s.description)}
            for s in defs.skills.values()
        ],
        "fixtures": [
            {"path": f.path, "name": f.name, "project_dir": f.project_dir, "skills": f.skills}
            for f in defs.fixtures
        ],
    }


# --- helpers ------------------------------------------------------------------------------


def _mantle(project: Project) -> MantleDefinitions:
    if project.mantle is None:
        raise ValueError(f"{project.root} is not a Mantle project")
    return project.mantle


def _anychat(project: Project) -> AnychatDefinitions:
    if project.anychat is None:
        raise ValueError(f"{project.root} is not an Anychat project")
    return project.anychat


def _agent_skills(project: Project) -> AgentSkillsDefinitions:
    if project.agent_skills is None:
        raise ValueError(f"{project.root} defines no agent skills")
    return project.agent_skills


def _read(path: Path) -> str | None:
    from evalcore._readbytes import read_text

    try:
        return read_text(path)
    except (OSError, UnicodeDecodeError):
        return None  # the reader already warned about it; fall back to the parsed body


def _first_sentence(text: str | None) -> str | None:
    if not text:
        return None
    flat = " ".join(text.split())
    end = flat.find(". ")
    return flat if end < 0 else flat[: end + 1]
