"""Verification of Anychat and base44 drafts, against what exists for them.

There is no reference agent for these dialects. A draft for the project a demo agent is
written for (`demo:clinic` plays `examples/clinic`) is played against it in-process, like
a Mantle draft against the reference agent; a case it fails is dropped with the failing
check. Any other project gets a static check that every referenced id and check *can* be
satisfied: the ids exist in the definitions, every check type is known and well formed
(a pattern compiles), and no two checks contradict each other (a tool both called and not
called, a text both included and excluded, a file pattern both required and excluded).
The report says which was done (`method: demo | static`). No mutants exist here, so a
case is never `weak`.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

from ._verify_play import play, run_case
from ._verify_types import Verdict, VerifyEnv

#: Demo agents and the example project each is written for, by dialect.
DEMOS: dict[str, tuple[str, str]] = {"anychat": ("clinic", "examples/clinic")}


def _demo_for(env: VerifyEnv) -> str | None:
    import evalcore

    entry = DEMOS.get(env.dialect.name)
    if entry is None:
        return None
    name, folder = entry
    home = Path(evalcore.__file__).resolve().parents[1] / folder
    return name if Path(env.project.root).resolve() == home.resolve() else None


async def verify_other(data: dict[str, Any], env: VerifyEnv) -> Verdict:
    demo = _demo_for(env)
    if demo is not None:
        return await _against_demo(data, env, demo)
    problems = STATIC[env.dialect.name](data, env)
    if problems:
        return Verdict("dropped", "static", data, reason="; ".join(problems[:3]), method="static")
    return Verdict("yes", "static", data, method="static")


async def _against_demo(data: dict[str, Any], env: VerifyEnv, demo: str) -> Verdict:
    from evalcore.agents.demo import make_demo_target

    spec = f"demo:{demo}"
    target = make_demo_target(demo)
    for case in run_case(data, env.path, env.dialect.name):
        played = await play(case, target, env.project)
        if played.status == "errored":
            return Verdict(
                "skipped", spec, data, reason=f"{spec} errored: {played.error}", method="demo"
            )
        if played.status == "failed":
            first = played.failing[0]
            return Verdict(
                "dropped",
                spec,
                data,
                reason=f"{spec} fails it ({first['type']}: {first['detail']})",
                method="demo",
            )
    return Verdict("yes", spec, data, method="demo")


# --- static checks ------------------------------------------------------------------------


def _anychat(data: dict[str, Any], env: VerifyEnv) -> list[str]:
    defs = env.project.anychat
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
        problems += _bad_pattern(str(pattern))
    return problems


def _base44(data: dict[str, Any], env: VerifyEnv) -> list[str]:
    from evalcore.runner.checks._base44 import check_types

    from ._suite import as_prompt_entries

    skills = set(env.project.agent_skills.skills) if env.project.agent_skills else set()
    known = set(check_types())
    problems: list[str] = []
    for entry in as_prompt_entries(data):
        name = entry.get("name", "?")
        for skill in entry.get("expectedSkills") or []:
            if skill not in skills:
                problems.append(f"{name}: expects skill {skill}, which the project lacks")
        wanted: set[tuple[str, str]] = set()
        banned: set[tuple[str, str]] = set()
        for check in entry.get("checks") or []:
            kind = str(check.get("type"))
            if kind not in known:
                problems.append(f"{name}: unknown check type {kind}")
                continue
            if kind.startswith("file-") and not check.get("filePath"):
                problems.append(f"{name}: {kind} names no filePath")
            pattern = check.get("pattern")
            if isinstance(pattern, str):
                problems += [f"{name}: {p}" for p in _bad_pattern(pattern)]
                pair = (str(check.get("filePath")), pattern)
                (banned if kind == "file-content-excluded" else wanted).add(pair)
        problems += [
            f"{name}: {file} must both match and not match {pattern}"
            for file, pattern in sorted(wanted & banned)
        ]
    return problems


def _bad_pattern(pattern: str) -> list[str]:
    try:
        re.compile(pattern)
    except re.error as exc:
        return [f"pattern {pattern!r} does not compile: {exc}"]
    return []


STATIC: dict[str, Callable[[dict[str, Any], VerifyEnv], list[str]]] = {
    "anychat": _anychat,
    "base44": _base44,
}

__all__ = ["DEMOS", "STATIC", "verify_other"]
