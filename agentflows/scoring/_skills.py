"""What counts as a skill's success, read from its definitions (never from case names).

A skill succeeds when one of its tools runs without error, when it completes, or when it
sends a success response: a tool's `on_success`, or the response its prose or its ordered
blocks send right after the last tool they run. The keys its tools write and the fields of
its `complete_when` condition are what a happy path must not assert as unset.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from evalcore.definitions import Block, Confirmation, Project, Skill, Step
from evalcore.definitions.conditions import condition_keys

from ..planning._mantle_tools import UNKNOWN, tool_keys

_FENCE = re.compile(r"^:::ordered_block\b.*?^:::\s*$", re.DOTALL | re.MULTILINE)
_UTTER = re.compile(r"\b(utter_[A-Za-z0-9_]+)\b")
_NEGATIVE = re.compile(r"\bnot\b|!=|==\s*(?:false|False)\b")


@dataclass(frozen=True)
class Gate:
    """A tool whose call waits for the user's confirmation."""

    tool: str
    denial: str | None
    """`utter_on_user_denial`, when the gate defines one."""
    on_success: str | None
    writes: frozenset[str]
    """Qualified memory keys the tool writes."""


@dataclass
class SkillSignals:
    skill_id: str
    tools: frozenset[str] = frozenset()
    """Every tool the skill can run (`tools_for`: local, imported shared, MCP)."""
    writes: dict[str, Any] = field(default_factory=dict)
    """Qualified key -> literal value (or UNKNOWN) written by the skill's success tools."""
    success_responses: frozenset[str] = frozenset()
    success_fields: frozenset[str] = frozenset()
    """Memory keys the skill-level `complete_when` condition reads."""
    gates: list[Gate] = field(default_factory=list)

    def contradicts_write(self, name: str, has_value: bool, value: Any) -> bool:
        """Whether `memory_was_not_set: {name[, value]}` says a success did not happen."""
        if name in self.success_fields and not has_value:
            return True
        if name not in self.writes:
            return False
        written = self.writes[name]
        return not has_value or (written is not UNKNOWN and written == value)


def skill_signals(project: Project, skill_id: str) -> SkillSignals:
    """The success signals and confirmation gates of one skill."""
    defs = project.mantle
    assert defs is not None
    skill = defs.skills[skill_id]
    tools = defs.tools_for(skill_id)
    names = set(tools) | set(skill.tool_constraints) | _block_tools(skill)
    per_tool = {name: tool_keys(project, tool, skill_id) for name, tool in tools.items()}
    condition = (skill.complete_when or {}).get("condition")
    fields = frozenset(condition_keys(condition if isinstance(condition, str) else None))
    known = set(defs.all_responses())
    responses = {c.on_success for c in skill.tool_constraints.values() if c.on_success}
    ending, block_responses = _block_success(skill, names)
    responses |= _prose_after_tools(skill, names, known) | block_responses
    writes: dict[str, Any] = {}
    for name in _success_tools(skill, names, per_tool, fields) | ending:
        writes.update(per_tool.get(name, {}))
    gates = [
        Gate(
            name, _denial(c.requires_confirmation), c.on_success, frozenset(per_tool.get(name, {}))
        )
        for name, c in skill.tool_constraints.items()
        if c.requires_confirmation is not None and c.requires_confirmation.enabled
    ]
    return SkillSignals(
        skill_id=skill_id,
        tools=frozenset(names),
        writes=writes,
        success_responses=frozenset(responses),
        success_fields=fields,
        gates=gates,
    )


def _success_tools(
    skill: Skill, names: set[str], per_tool: dict[str, dict[str, Any]], fields: frozenset[str]
) -> set[str]:
    """The tools whose run is the skill's success: those with an `on_success` response,
    those that write a `complete_when` field, and the last tool the prose mentions; when
    none of these exists, every tool of the skill."""
    chosen = {n for n, c in skill.tool_constraints.items() if c.on_success}
    chosen |= {n for n, keys in per_tool.items() if fields & set(keys)}
    prose = _FENCE.sub("", skill.body)
    positions = {n: _last_tool_mention(prose, {n}) for n in names}
    last = max(positions.values(), default=-1)
    chosen |= {n for n, at in positions.items() if at == last and at >= 0}
    return chosen or set(names)


def _denial(confirmation: Confirmation | None) -> str | None:
    return confirmation.utter_on_user_denial if confirmation else None


def _block_tools(skill: Skill) -> set[str]:
    return {
        str(s.target)
        for b in skill.blocks.values()
        for s in b.steps
        if s.kind == "execute_tool" and s.target
    }


def _prose_after_tools(skill: Skill, tools: set[str], known: set[str]) -> set[str]:
    """`utter_*` responses the prose names after its last mention of one of the tools."""
    prose = _FENCE.sub("", skill.body)
    last = _last_tool_mention(prose, tools)
    if last < 0:
        return set()
    return {m.group(1) for m in _UTTER.finditer(prose, last) if m.group(1) in known}


def _last_tool_mention(prose: str, tools: set[str]) -> int:
    last = -1
    for name in tools:
        for match in re.finditer(rf"(?<![A-Za-z0-9_]){re.escape(name)}(?![A-Za-z0-9_])", prose):
            last = max(last, match.end())
    return last


def _block_success(skill: Skill, tools: set[str]) -> tuple[set[str], set[str]]:
    """Tools that end an ordered block, and the `action:` responses sent after them, for
    blocks the prose does not follow with another tool call (then the prose's is last)."""
    prose = _FENCE.sub("", skill.body)
    last_tool = _last_tool_mention(prose, tools)
    ending: set[str] = set()
    said: set[str] = set()
    for block in skill.blocks.values():
        mentions = [m.end() for m in re.finditer(rf"@block\.{re.escape(block.id)}\b", prose)]
        if mentions and last_tool > max(mentions):
            continue
        for step, responses in _terminal_tools(block):
            ending.add(str(step.target))
            said |= responses
    return ending, said


def _terminal_tools(block: Block) -> list[tuple[Step, set[str]]]:
    """`execute_tool` steps from which a straight path reaches the block's end without
    asking or running anything else (only `action:`, `noop` and `set_memory` steps), with
    the responses on that path. The path may leave the tool by a positive `if:` branch
    (never the `else:`, nor a condition with `not`, `!=` or `== false`)."""
    steps = block.steps
    out: list[tuple[Step, set[str]]] = []
    for index, step in enumerate(steps):
        if step.kind != "execute_tool":
            continue
        for start in _ways_on(steps, index):
            said = _straight_to_end(steps, start)
            if said is not None:
                out.append((step, said))
    return out


def _ways_on(steps: list[Step], index: int) -> list[int | None]:
    step = steps[index]
    if not isinstance(step.next, list):
        return [_following(steps, index)]
    return [
        _index(steps, b.target)
        for b in step.next
        if b.condition is not None and not _NEGATIVE.search(b.condition)
    ]


def _straight_to_end(steps: list[Step], current: int | None) -> set[str] | None:
    """Responses on the path from `current` to END; None when the path asks or runs more."""
    said: set[str] = set()
    seen: set[int] = set()
    while current is not None and steps[current].id != "END":
        if current in seen:
            return None
        seen.add(current)
        step = steps[current]
        if isinstance(step.next, list) and len(step.next) != 1:
            return None
        if step.kind == "action" and isinstance(step.target, str):
            said.add(step.target)
        elif step.kind not in ("noop", "set_memory"):
            return None
        current = _following(steps, current)
    return said


def _following(steps: list[Step], index: int) -> int | None:
    """The index of the step after `index` (its single `next`, or the one below); None at
    the end, and for a branch list (more than one way on)."""
    step = steps[index]
    if isinstance(step.next, list):
        return None if len(step.next) != 1 else _index(steps, step.next[0].target)
    if isinstance(step.next, str):
        return _index(steps, step.next)
    return index + 1 if index + 1 < len(steps) else None


def _index(steps: list[Step], step_id: str) -> int | None:
    return next((i for i, s in enumerate(steps) if s.id == step_id), None)


__all__ = ["Gate", "SkillSignals", "skill_signals"]
