"""What an Anychat case asks that no agent can give (`Dialect.unsatisfiable`): a playbook,
tool or outcome the project lacks, or two checks that contradict each other."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .._base import pattern_problems

if TYPE_CHECKING:
    from ...definitions import Project


def unsatisfiable(data: dict[str, Any], project: Project) -> list[str]:
    defs = project.anychat
    checks = (data.get("expect") or {}).get("checks") or {}
    problems: list[str] = []
    if defs is None:
        return ["the project has no Anychat definitions"]
    playbook = checks.get("activePlaybookAtEnd")
    if isinstance(playbook, str) and playbook not in defs.playbooks:
        problems.append(f"activePlaybookAtEnd names no playbook: {playbook}")
    called = checks.get("toolsCalled") or {}
    not_called = checks.get("toolsNotCalled") or []
    for tool in [*called, *not_called]:
        if defs.tools and tool not in defs.tools:
            problems.append(f"no tool {tool} in tools.yml")
    problems += [f"{t} is both called and not called" for t in set(called) & set(not_called)]
    outcomes = set(defs.outcomes) | {o for p in defs.playbooks.values() for o in p.outcomes}
    for outcome in checks.get("outcomes") or []:
        if outcomes and outcome not in outcomes:
            problems.append(f"no outcome {outcome} is defined")
    included = {str(t).lower() for t in checks.get("textIncludes") or []}
    excluded = {str(t).lower() for t in checks.get("textExcludes") or []}
    problems += [f"text '{t}' is both included and excluded" for t in sorted(included & excluded)]
    if checks.get("appointmentCreated") is True and checks.get("activeAppointments") == 0:
        problems.append("an appointment is created yet none is active")
    for pattern in checks.get("textMatches") or []:
        problems += pattern_problems(str(pattern))
    return problems
