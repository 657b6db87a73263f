"""What the model is shown about the project: the source's definition and its real ids.

The same helpers the LLM drafter uses, so a critique or a revision sees the definition exactly
as drafting did; a case whose source cannot be told gets the project's list of sources.
"""

from __future__ import annotations

import json
from typing import Any

from evalcore.definitions import Project


def source_material(project: Project | None, dialect: str, source: str | None) -> tuple[str, str]:
    """(definition text, ids as JSON) for the prompt placeholders `definition` and `ids`."""
    # start-up: langchain_core, langchain_openai, langsmith and 22 casegen modules
    from agentflows.drafting.llm import definition_ids, definition_text

    if project is None:
        return "(no project definition available)", "{}"
    if source is not None:
        try:
            return (
                definition_text(project, dialect, source),
                to_json(definition_ids(project, dialect, source)),
            )
        except (KeyError, ValueError):
            pass  # the source is not in this project: fall back to the overview
    return "(the case's skill / playbook could not be told)", to_json(_overview(project))


def _overview(project: Project) -> dict[str, Any]:
    if project.mantle is not None:
        return {"skills": sorted(project.mantle.skills)}
    if project.anychat is not None:
        return {
            "playbooks": sorted(project.anychat.playbooks),
            "tools": sorted(project.anychat.tools),
        }
    if project.agent_skills is not None:
        return {"skills": sorted(project.agent_skills.skills)}
    return {}


def to_json(value: Any) -> str:
    """Compact JSON, as drafting sends it: a model reads it as well as indented JSON, and
    the indentation of a case and its ids cost a critique about a tenth of its prompt."""
    return json.dumps(value, ensure_ascii=False, default=str)


__all__ = ["source_material", "to_json"]
