"""Survivor reasons a reached site can have: the argument a fault alters is no value a case
could assert (`argument_from_result`, `free_text`), an early call no case can tell apart
(`no_mark`), or one whose gate no case seeds (`off_path`). See `_reasons` for the classes."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Protocol

from agentflows.drafting.offline import exact
from evalcore.agents.reference import Mutant, returned
from evalcore.definitions import Project
from evalcore.definitions.conditions import condition_keys
from evalcore.definitions.skill_model import normalised_parameters, skill_models, tool_keys

from ._reasons_path import Reason


class CaseRun(Protocol):
    """What these reasons read of a passing case's run (`_reasons.CaseRun`): its tracker
    events. Typed by shape so this module need not import the one that imports it."""

    events: list[dict[str, Any]]


def argument_source(project: Project, mutant: Mutant, reached: Sequence[CaseRun]) -> Reason | None:
    """`argument_from_result` when, in every reached run, the argument the fault alters
    holds no value the user gave."""
    models = skill_models(project)
    model = models.get(mutant.skill or "")
    asked = {f.qualified for f in model.fields} if model is not None else set()
    names = project.mantle.memory_names() if project.mantle is not None else {}
    sources: list[tuple[str, str]] = []
    for run in reached:
        memory: dict[str, Any] = {}
        results: list[tuple[str, Any]] = []
        seeded = {str(e.get("key")) for e in run.events[:3] if e.get("event") == "memory_set"}
        for event in run.events:
            kind = event.get("event")
            if kind == "memory_set":
                memory[str(event.get("key"))] = event.get("value")
            elif kind == "tool_executed" and event.get("tool_name") == mutant.target:
                arguments = dict(event.get("arguments") or {})
                if not arguments:
                    sources.append(("argument_from_result", _bare(project, mutant)))
                    continue
                given = [
                    k
                    for k, v in arguments.items()
                    if v is not None and any(memory.get(a) == v for a in asked)
                ]
                told = [k for k in given if not any(returned(r, arguments[k]) for _, r in results)]
                if told:
                    words = _worded(told, arguments, memory, asked, names)
                    words = words or _folded(project, mutant, told[0])
                    if words is None:
                        return None  # the user's own exact value: a case could assert it
                    sources.append(("free_text", words))
                    continue
                name, value = next(iter(arguments.items()))
                if name in given:
                    text = f"argument {name} is a record the user picked from a result"
                else:
                    text = _source_of(name, value, results, memory, seeded)
                sources.append(("argument_from_result", text))
            if kind == "tool_executed":
                results.append((str(event.get("tool_name")), event.get("result")))
    if not sources:
        return None
    code, text = sources[0]
    return Reason(code, f"{text}: no value a case could assert holds for every correct agent")


def _worded(
    told: Sequence[str],
    arguments: Mapping[str, Any],
    memory: Mapping[str, Any],
    asked: set[str],
    names: Mapping[str, Any],
) -> str | None:
    """Why the user's own value the fault alters (the first one in the call, as the mutant
    picks it) is not one an agent passes exactly (free text, a label, a list or object:
    `exact`, the drafter's own rule), or None when it is."""
    name = told[0]
    field = next((a for a in sorted(asked) if memory.get(a) == arguments[name]), None)
    spec = names.get(field or "")
    if field is None or spec is None or exact(spec.type, arguments[name]):
        return None
    kind = spec.type
    what = "free text" if kind == "text" else f"a {kind} value"
    return (
        f"argument {name} holds the user's answer for {field}, {what} an agent may word its "
        "own way or resolve to the record it names (`arguments` compare by equality)"
    )


def _folded(project: Project, mutant: Mutant, name: str) -> str | None:
    """Why the user's exact value in argument `name` is still no value a case asserts: the
    tool's own code normalises it (`normalised_parameters`), so every spelling is correct
    and a case asserts the value the user chose as memory instead."""
    defs = project.mantle
    tool = defs.tools_for(mutant.skill or "").get(mutant.target or "") if defs else None
    if tool is None or name not in normalised_parameters(project, tool):
        return None
    return (
        f"argument {name} is normalised by {tool.name}'s own code (case, spaces or another "
        "name for it), so any spelling is correct and `arguments` compare by equality"
    )


def unseeded_gate(project: Project, mutant: Mutant, reached: Sequence[CaseRun]) -> Reason | None:
    """`off_path` for an early call of a tool no reached run calls at all, when its `requires`
    reads a seeded project field none of those runs seeds (a channel): which side of the gate
    a correct agent is on is the deployment's, not the case's, so no reached case can say
    the call is wrong; a case that seeds the field can."""
    defs = project.mantle
    skill = defs.skills.get(mutant.skill or "") if defs is not None else None
    constraint = skill.tool_constraints.get(mutant.target or "") if skill is not None else None
    if defs is None or constraint is None or not constraint.requires:
        return None
    names = defs.memory_names()
    seeds = [k for k in condition_keys(str(constraint.requires)) if k in names and names[k].seed]
    if not seeds:
        return None
    for run in reached:
        if any(e.get("tool_name") == mutant.target for e in run.events):
            return None
        started = next(
            (e.get("value") for e in run.events if e.get("key") == "session_started_metadata"),
            None,
        )
        given = set(started) if isinstance(started, dict) else set()
        if any(k.split(".", 1)[-1] in given for k in seeds):
            return None
    gate = ", ".join(seeds)
    return Reason(
        "off_path",
        f"only on a path no verified case takes: no verified case runs {mutant.target} "
        f"(`requires: {constraint.requires}`), and none seeds {gate}, which decides whether "
        "a correct agent may call it",
    )


def _bare(project: Project, mutant: Mutant) -> str:
    """Why a reached call had no argument for the fault to alter."""
    defs = project.mantle
    tool = defs.tools_for(mutant.skill or "").get(mutant.target or "") if defs else None
    params = [
        p.name
        for p in (tool.parameters if tool is not None else [])
        if p.name != "context" and "ToolContext" not in (p.type or "")
    ]
    names = ", ".join(params) or "none"
    return (
        f"{mutant.target} runs with no arguments on every verified path (its parameters, "
        f"{names}, come from memory only another tool or an unseeded entry fills)"
    )


def _source_of(
    name: str, value: Any, results: list[tuple[str, Any]], memory: dict[str, Any], seeded: set
) -> str:
    for tool, result in results:
        if returned(result, value):
            return f"argument {name} comes from {tool}'s result"
    for key, held in memory.items():
        if held == value and key.startswith("project."):
            how = "a seeded entry" if key in seeded else "project memory a tool wrote"
            return f"argument {name} comes from {key} ({how})"
    return f"argument {name} is a value the agent picks itself"


def no_mark(project: Project, mutant: Mutant) -> Reason | None:
    """An early extra call of a tool that writes no memory and has no response leaves
    nothing an assertion can see once the real call runs too (Mantle has no assertion
    that a tool did not run, and `sequencing` allows gaps)."""
    defs = project.mantle
    skill = defs.skills.get(mutant.skill or "") if defs is not None else None
    if skill is None or defs is None:
        return None
    tool = defs.tools_for(skill.id).get(mutant.target or "")
    constraint = skill.tool_constraints.get(mutant.target or "")
    if tool is None or tool_keys(project, tool, skill.id):
        return None
    if constraint is not None and (constraint.on_success or constraint.on_failure):
        return None
    return Reason(
        "no_mark",
        f"{mutant.target} writes no memory and utters no response: an early extra call "
        "leaves nothing an assertion can see",
    )


__all__ = ["argument_source", "no_mark", "unseeded_gate"]
