"""What a model is told about a playbook: its YAML, and every real id a case may use."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .._sources import read_definition

if TYPE_CHECKING:
    from ...definitions import AnychatDefinitions, Project


def definition_text(project: Project, source: str) -> str:
    """The playbook's file as written (its parsed body where there is none to read)."""
    playbook = _anychat(project).playbooks[source]
    file = playbook.source.file if playbook.source else None
    return (read_definition(project.root / file) if file else None) or playbook.body


def definition_ids(project: Project, source: str) -> dict[str, Any]:
    return _ids(_anychat(project), source)


def _ids(defs: AnychatDefinitions, source: str) -> dict[str, Any]:
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


def _anychat(project: Project) -> AnychatDefinitions:
    if project.anychat is None:
        raise ValueError(f"{project.root} is not an Anychat project")
    return project.anychat
