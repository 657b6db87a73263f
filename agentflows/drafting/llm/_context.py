"""What the model is told about a source: its definition text and every real id it may use.

The ids are the antidote to hallucinated names: a model that sees the exact skill, block,
memory, tool and response names (with memory types and enum values, tool parameters) writes
them; lint and repair catch the rest. Each dialect reads its own definitions
(`Dialect.definition_text`, `Dialect.definition_ids`); only the `Project` and the definition
files are read.
"""

from __future__ import annotations

from typing import Any

from evalcore.definitions import Project
from evalcore.dialects import get_dialect

#: Definition files longer than this are cut (with a note), to keep prompts bounded.
MAX_DEFINITION_CHARS = 40_000


def definition_text(project: Project, dialect: str, source: str) -> str:
    """The source's definition as written: skill.md, the playbook YAML or SKILL.md."""
    text = get_dialect(dialect).definition_text(project, source)
    if len(text) > MAX_DEFINITION_CHARS:
        text = text[:MAX_DEFINITION_CHARS] + "\n[… definition cut here for length …]"
    return text


def definition_ids(project: Project, dialect: str, source: str) -> dict[str, Any]:
    """Every real id a case for `source` may use, as JSON-ready data."""
    return get_dialect(dialect).definition_ids(project, source)
