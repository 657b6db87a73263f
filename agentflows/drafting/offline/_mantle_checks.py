"""Mantle assertion builders and a skill's success signal, read off the definitions.

Two rules every goal of a draft follows:

- `sequencing` holds only the steps Rasa's schema and assertion engine accept (reference
  §2.1): skill and ordered-block lifecycle maps, `tool_executed` with `tool_name`/`source`
  (and `mcp_server`), and `memory_was_set` / `memory_was_cleared` as plain names. A message
  is asserted on its own (`bot_uttered`) and the events around it are ordered.
- A happy path asserts its skill's *success signal*: the terminal tool (the one that writes
  what `complete_when` waits for, else the last confirmation-gated tool) ran without error,
  its `on_success` response, and `skill_completed`; only the parts the walk really reaches.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from evalcore.assertions import SEQUENCING_MAP_STEPS, SEQUENCING_NAME_STEPS
from evalcore.definitions import Project, Skill, memoized
from evalcore.definitions.conditions import condition_keys
from evalcore.definitions.skill_model import tool_keys

from ...planning.mantle_offers import Event

Check = dict[str, Any]

#: Lifecycle checks `sequencing` accepts as maps (reference §2.1; one list, in evalcore).
SEQUENCE_MAPS = frozenset(SEQUENCING_MAP_STEPS) - {"tool_executed"}
#: Memory checks `sequencing` accepts as a plain memory name.
SEQUENCE_NAMES = frozenset(SEQUENCING_NAME_STEPS)


def skill_check(kind: str, skill: str, step: str | None = None) -> Check:
    body: dict[str, Any] = {"skill_id": skill}
    if step is not None:
        body["step_id"] = step
    return {kind: body}


def tool_check(
    event: Event,
    *,
    skill: str | None = None,
    arguments: bool = True,
    is_error: bool | None = None,
) -> Check:
    body: dict[str, Any] = {"tool_name": event.tool, "source": event.source}
    if event.source == "mcp" and event.server:
        body["mcp_server"] = event.server
    # a tool of a skill the case's skill `call:`s runs under the called skill (reference
    # §3: its events carry the called skill's id), not under the one the case is about
    owner = event.skill or skill
    if skill and owner:
        body["skill_id"] = owner
    if arguments and event.arguments:
        body["arguments"] = dict(event.arguments)
    if is_error is not None:
        body["is_error"] = is_error
    return {"tool_executed": body}


def short_tool(event: Event) -> Check:
    """The `tool_executed` form a `sequencing` step takes."""
    return tool_check(event, arguments=False)


def sequencing_step(check: Check) -> Check | None:
    """`check` as a step Rasa accepts inside `sequencing`, or None when none can say it."""
    if len(check) != 1:
        return None
    ((key, body),) = check.items()
    if key in SEQUENCE_MAPS and isinstance(body, dict) and body.get("skill_id"):
        allowed = ("skill_id",) if key in ("skill_activated", "skill_completed") else None
        return {key: {k: v for k, v in body.items() if allowed is None or k in allowed}}
    if key == "tool_executed" and isinstance(body, dict) and body.get("tool_name"):
        kept = {k: body[k] for k in ("tool_name", "source", "mcp_server") if k in body}
        if kept.get("source") != "mcp":
            kept.pop("mcp_server", None)
        return {key: kept}
    if key in SEQUENCE_NAMES:
        if isinstance(body, str):
            return {key: body}
        if isinstance(body, list) and len(body) == 1 and isinstance(body[0], dict):
            name = body[0].get("name")
            return {key: name} if isinstance(name, str) else None
    return None


def sequencing(steps: Iterable[Check]) -> Check | None:
    """A `sequencing` assertion of the allowed steps (repeats dropped), or None under two."""
    kept: list[Check] = []
    for step in steps:
        allowed = sequencing_step(step)
        if allowed is not None and (not kept or kept[-1] != allowed) and allowed not in kept:
            kept.append(allowed)
    return {"sequencing": kept} if len(kept) >= 2 else None


# --- success signal ------------------------------------------------------------------------


@dataclass(frozen=True)
class Success:
    """What shows a skill did its job, as far as the definitions say."""

    tool: str | None = None
    """The terminal tool: it writes what `complete_when` waits for (else the last gated one)."""
    response: str | None = None
    """The terminal tool's `on_success` response."""
    keys: tuple[str, ...] = ()
    """Qualified memory that `complete_when` reads (written when the skill is done)."""


def success_of(project: Project, skill: Skill) -> Success:
    """The skill's success signal, read once per loaded project and skill: every goal of
    every case asks for it."""
    key = ("success_of", skill.id, id(skill))
    return memoized(project, key, lambda: _success_of(project, skill))


def _success_of(project: Project, skill: Skill) -> Success:
    assert project.mantle is not None
    defs = project.mantle
    condition = str((skill.complete_when or {}).get("condition") or "")
    keys = tuple(k for k in condition_keys(condition) if k.startswith(skill.id + "."))
    tools = defs.tools_for(skill.id)
    writers = [
        name
        for name in _tool_order(skill, tools)
        if set(tool_keys(project, tools[name], skill.id)) & set(keys)
    ]
    gated = [
        name
        for name, c in skill.tool_constraints.items()
        if c.requires_confirmation is not None and c.requires_confirmation.enabled
    ]
    terminal = writers[-1] if writers else (gated[-1] if gated else None)
    constraint = skill.tool_constraints.get(terminal or "")
    return Success(terminal, constraint.on_success if constraint else None, keys)


def terminal_tools(project: Project, skill: Skill) -> list[str]:
    """Every tool that can end the skill successfully (several when branches differ); a
    fresh list of the names found once per loaded project and skill."""
    key = ("terminal_tools", skill.id, id(skill))
    return list(memoized(project, key, lambda: tuple(_terminal_tools(project, skill))))


def _terminal_tools(project: Project, skill: Skill) -> list[str]:
    assert project.mantle is not None
    success = success_of(project, skill)
    tools = project.mantle.tools_for(skill.id)
    writers = [
        name
        for name in _tool_order(skill, tools)
        if set(tool_keys(project, tools[name], skill.id)) & set(success.keys)
    ]
    return writers or ([success.tool] if success.tool else [])


def _tool_order(skill: Skill, tools: dict[str, Any]) -> list[str]:
    """The skill's tools in definition order: block steps, then constraints, then the rest."""
    names = [
        str(s.target) for b in skill.blocks.values() for s in b.steps if s.kind == "execute_tool"
    ]
    names += list(skill.tool_constraints)
    names += list(tools)
    return [n for n in dict.fromkeys(names) if n in tools]


__all__ = [
    "SEQUENCE_MAPS",
    "SEQUENCE_NAMES",
    "Check",
    "Success",
    "sequencing",
    "sequencing_step",
    "short_tool",
    "skill_check",
    "success_of",
    "terminal_tools",
    "tool_check",
]
