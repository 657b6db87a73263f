"""Which skill, playbook or agent skill a case tests.

Rules need it (the collect steps of the skill under test, the playbook's outcomes) and so do
the critique and revise prompts (the definition to show the model). The case says it most
reliably (the skill its assertions name, `origin.playbookId`, `expectedSkills`); the file
name and the manifest entry are the fallbacks.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any

from evalcore.definitions import Project
from evalcore.lint import as_dict, as_list

from ._records import manifest_entry


def case_source(
    project: Project | None, dialect: str, data: Any, path: Path | None = None
) -> str | None:
    """The id of the skill / playbook / agent skill `data` tests, when one can be told."""
    if project is None:
        return None
    known = _known(project, dialect)
    if not known:
        return None
    named = [s for s in _named(project, dialect, as_dict(data)) if s in known]
    if named:
        return Counter(named).most_common(1)[0][0]
    if path is not None:
        stem = path.stem if dialect != "base44" else path.parent.name
        by_prefix = [s for s in known if stem == s or stem.startswith((s + "_", s + "-"))]
        if by_prefix:
            return max(by_prefix, key=len)
        found = manifest_entry(path)
        if found is not None and found[2].source in known:
            return found[2].source
    return None


def _known(project: Project, dialect: str) -> set[str]:
    if dialect == "mantle" and project.mantle is not None:
        return set(project.mantle.skills)
    if dialect == "anychat" and project.anychat is not None:
        return set(project.anychat.playbooks)
    if dialect == "base44" and project.agent_skills is not None:
        return set(project.agent_skills.skills)
    return set()


def _named(project: Project, dialect: str, data: dict[str, Any]) -> list[str]:
    """Ids the case itself names, most telling first (order breaks Counter ties)."""
    if dialect == "mantle":
        goals = as_dict(as_dict(data.get("scenario")).get("goals"))
        out: list[str] = []
        for item in mantle_assertions(goals.get("assertions")):
            for key, body in item.items():
                if key.startswith(("skill_", "ordered_block_")):
                    skill = as_dict(body).get("skill_id")
                    if isinstance(skill, str):
                        out.append(skill)
        return out
    if dialect == "anychat":
        origin = as_dict(data.get("origin"))
        checks = as_dict(as_dict(data.get("expect")).get("checks"))
        start = as_dict(as_dict(data.get("scenario")).get("start"))
        outreach_id = as_dict(start.get("outreach")).get("outreachId")
        outreach = (
            project.anychat.outreaches.get(outreach_id)
            if project.anychat and isinstance(outreach_id, str)
            else None
        )
        candidates = [origin.get("playbookId"), checks.get("activePlaybookAtEnd")]
        candidates.append(outreach.playbook if outreach else None)
        candidates += as_list(data.get("tags"))
        return [c for c in candidates if isinstance(c, str)]
    units = as_list(data.get("prompts")) or [data]
    return [
        s
        for unit in units
        for s in as_list(as_dict(unit).get("expectedSkills"))
        if isinstance(s, str)
    ]


def mantle_assertions(items: Any) -> list[dict[str, Any]]:
    """Top-level assertions plus the checks inside `sequencing`, as single-key mappings."""
    out: list[dict[str, Any]] = []
    for item in as_list(items):
        item = as_dict(item)
        out.append(item)
        for inner in as_list(item.get("sequencing")):
            if isinstance(inner, dict):
                out.append(inner)
    return out


__all__ = ["case_source", "mantle_assertions"]
