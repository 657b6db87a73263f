"""What a base44 eval asks that no agent can give (`Dialect.unsatisfiable`): a skill the
project lacks, a check type the runner does not know, a file check without its file, or a
file pattern both required and excluded."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .._base import pattern_problems
from ._check_keys import CHECK_KEYS
from ._shape import prompt_entries

if TYPE_CHECKING:
    from ...definitions import Project


def unsatisfiable(data: dict[str, Any], project: Project) -> list[str]:
    skills = set(project.agent_skills.skills) if project.agent_skills else set()
    problems: list[str] = []
    for entry in prompt_entries(data):
        name = entry.get("name", "?")
        for skill in entry.get("expectedSkills") or []:
            if skill not in skills:
                problems.append(f"{name}: expects skill {skill}, which the project lacks")
        wanted: set[tuple[str, str]] = set()
        banned: set[tuple[str, str]] = set()
        for check in entry.get("checks") or []:
            kind = str(check.get("type"))
            if kind not in CHECK_KEYS:
                problems.append(f"{name}: unknown check type {kind}")
                continue
            if kind.startswith("file-") and not check.get("filePath"):
                problems.append(f"{name}: {kind} names no filePath")
            pattern = check.get("pattern")
            if isinstance(pattern, str):
                problems += [f"{name}: {p}" for p in pattern_problems(pattern)]
                pair = (str(check.get("filePath")), pattern)
                (banned if kind == "file-content-excluded" else wanted).add(pair)
        problems += [
            f"{name}: {file} must both match and not match {pattern}"
            for file, pattern in sorted(wanted & banned)
        ]
    return problems
