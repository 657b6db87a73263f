"""Which Agent Skills the agent of a fixture case gets, settled before any run starts.

A command agent plays a base44 eval in a copy of the fixture's project with the project's
skills installed (`evalcore.agents.FixtureContext`). Found only by walking up from the
fixture, the skills are lost as soon as the fixture sits outside its project (written by
`generate --out DIR`, copied elsewhere): the agent would run without them, a case that
expects a skill would fail as the agent's fault, and a case that expects none would pass
for nothing. So each case is given the project `validate` checks it against (`--project`,
else the enclosing one, else the one its manifest says it was generated from); a skill the
case expects that none of those places holds stops the run with what is missing, and cases
that would run with no skill at all are named in a note.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from ..agents import SKILLS_PROJECT_KEY, skill_sources
from ..definitions import Project
from ..errors import UserError
from ..runcase import RunCase

_SHOWN = 10


def with_skills_project(cases: list[RunCase], project: Project | None) -> list[RunCase]:
    """The fixture cases with `project` named as their skills' project, when it is an Agent
    Skills project (other cases, and other projects, are left as they are)."""
    if project is None or project.agent_skills is None:
        return cases
    root = str(project.root.resolve())
    return [
        case.model_copy(update={"setup": {**case.setup, SKILLS_PROJECT_KEY: root}})
        if case.setup.get("fixture")
        else case
        for case in cases
    ]


def _expected(case: RunCase) -> list[str]:
    checks = case.checks if isinstance(case.checks, dict) else {}
    return [str(s) for s in checks.get("expectedSkills") or []]


def _looked_in(case: RunCase) -> str:
    project = case.setup.get(SKILLS_PROJECT_KEY)
    fixture = Path(str(case.setup["fixture"]))
    if project:
        return f"the project {project} (skills/<name>/SKILL.md) and the fixture's own skills/"
    return (
        f"the fixture {fixture} is in no Agent Skills project (none above it, --project not "
        "given, no manifest naming one) and has no such skills/ of its own"
    )


def _scan(cases: Sequence[RunCase]) -> tuple[dict[str, tuple[set[str], str]], list[str]]:
    """(case file → (expected skills not found, where they were looked for), the slugs of
    fixture cases whose agent would get no skill at all)."""
    missing: dict[str, tuple[set[str], str]] = {}
    bare: list[str] = []
    for case in cases:
        fixture = case.setup.get("fixture")
        if not fixture:
            continue
        sources = skill_sources(fixture, case.setup.get(SKILLS_PROJECT_KEY))
        lacking = [s for s in _expected(case) if s not in sources]
        if lacking:
            names, _ = missing.setdefault(case.path, (set(), _looked_in(case)))
            names.update(lacking)
        elif not sources:
            bare.append(case.slug)
    return missing, bare


def check_fixture_skills(cases: Sequence[RunCase]) -> None:
    """Refuse to run a fixture case whose agent would lack a skill the case expects.

    Raises:
        UserError: every such case file, with the skills it misses and where they were
            looked for.
    """
    missing, _ = _scan(cases)
    if not missing:
        return
    lines = [
        f"{path}: expects {', '.join(sorted(names))}, not found: {where}"
        for path, (names, where) in missing.items()
    ]
    more = f"\n  … and {len(lines) - _SHOWN} more" if len(lines) > _SHOWN else ""
    raise UserError(
        "the agent would run without the skills these evals expect:\n  "
        + "\n  ".join(lines[:_SHOWN])
        + more,
        hint="pass --project DIR, the Agent Skills project that holds "
        "skills/<name>/SKILL.md, or keep the fixture inside that project",
    )


def no_skills_note(cases: Sequence[RunCase]) -> str | None:
    """A note naming the fixture cases (none expecting a skill) whose agent gets no skill."""
    _, bare = _scan(cases)
    if not bare:
        return None
    named = ", ".join(bare[:5]) + (f" and {len(bare) - 5} more" if len(bare) > 5 else "")
    return (
        f"{named}: no Agent Skills are installed for the agent (no project with skills/ was "
        "found for the fixture; pass --project DIR to give it one)"
    )


__all__ = ["check_fixture_skills", "no_skills_note", "with_skills_project"]
