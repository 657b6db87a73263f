"""Success signals of a skill: which tools are terminal, on which path, and what they leave.

Terminal tools, in order of strength: those that write what `complete_when` waits for, else
gated or `on_success` tools; then every mode value none of those covers gets its own (the
last non-lookup tool that value runs); with neither, a tool whose result a block branch
checks positively, else the last non-lookup tool the skill calls. Tools only an `else:`
branch runs are never terminal. Signals: the terminal tools, the memory they write, their
`on_success` response, what `complete_when` waits for, and `skill_completed`.
"""

from __future__ import annotations

from ...lexicon.en.tool_texts import LOOKUP_NAME as _LOOKUP
from .._model import Skill
from ..conditions import condition_keys
from ._types import Mode, SuccessSignal, ToolUse


def _else_tools(skill: Skill) -> set[str]:
    """Tools at a step a `next` branch reaches only through `else:` (a failure path)."""
    out: set[str] = set()
    for block in skill.blocks.values():
        targets = {b.target for s in block.steps if isinstance(s.next, list) for b in s.next}
        elses = {
            b.target
            for s in block.steps
            if isinstance(s.next, list)
            for b in s.next
            if b.condition is None
        }
        positive = targets - elses
        for step in block.steps:
            if step.id in elses and step.id not in positive and step.kind == "execute_tool":
                out.add(str(step.target))
    return out


def _checked_keys(skill: Skill) -> set[str]:
    """Memory a block branch checks positively (`if: session.project.authenticated`)."""
    return {
        k
        for block in skill.blocks.values()
        for step in block.steps
        if isinstance(step.next, list)
        for b in step.next
        if b.condition and not b.condition.strip().startswith("not ")
        for k in condition_keys(b.condition)
    }


def _call_condition(tool: ToolUse) -> str | None:
    """The paragraph `if:`s every (non-optional) call of the tool sits under, or None."""
    scopes: list[str] = []
    for call in tool.calls:
        if call.optional or call.kind == "constraint":
            continue
        scope = call.condition
        if call.when and scope:
            scope = None if scope == call.when else scope.removesuffix(f" and {call.when}")
            scope = (
                scope[1:-1] if scope and scope.startswith("(") and scope.endswith(")") else scope
            )
        if not scope:
            return None
        scopes.append(scope)
    unique = list(dict.fromkeys(scopes))
    return " or ".join(f"({c})" if " or " in c else c for c in unique) or None


def terminal_tools(
    skill: Skill, tools: list[ToolUse], modes: list[Mode], done_keys: list[str]
) -> dict[str, str | None]:
    """Terminal tool -> the condition (mode or `if:`) it belongs to, None for every path.

    Tools that write what `complete_when` waits for, else gated or `on_success` tools; then
    every mode value none of those covers gets its own (the last non-lookup tool that value
    runs); with neither, a tool whose result a block branch checks positively, else the last
    non-lookup tool the skill calls. Tools only an `else:` branch runs are never terminal."""
    failing = _else_tools(skill)
    defined = [t for t in tools if t.defined and t.name not in failing]
    writers = [t for t in defined if any(w.key in done_keys for w in t.writes)]
    gated = [t for t in defined if t.gate and (t.gate.on_success or t.gate.confirmation)]
    chosen = writers or gated
    out: dict[str, str | None] = {
        t.name: None if _unscoped(t) else _mode_condition(t, modes) or _call_condition(t)
        for t in chosen
    }
    for mode in modes:
        for value in mode.values:
            if any(t in out for t in value.tools):
                continue
            under = [t for t in defined if t.name in value.tools]
            if not under:
                continue
            best = next((t for t in reversed(under) if not _LOOKUP.match(t.name)), under[-1])
            extra = f"session.{mode.field} == '{value.value}'"
            out[best.name] = f"{out[best.name]} or {extra}" if out.get(best.name) else extra
    if out:
        return out
    called = [t for t in defined if any(c.kind != "constraint" and not c.optional for c in t.calls)]
    checked = _checked_keys(skill)
    checks = [t for t in called if any(w.key in checked for w in t.writes)]
    if checks:
        return {checks[-1].name: _call_condition(checks[-1])}
    if called:
        best = next((t for t in reversed(called) if not _LOOKUP.match(t.name)), called[-1])
        out[best.name] = _call_condition(best)
    return out


def _unscoped(tool: ToolUse) -> bool:
    """The prose calls the tool on every path too ("When zoning_ok is true, open the
    application"), beside the modes that call it themselves."""
    scoped = [c for c in tool.calls if not c.optional and c.kind != "constraint"]
    return len(scoped) > 1 and _call_condition(tool) is None


def _mode_condition(tool: ToolUse, modes: list[Mode]) -> str | None:
    """`session.x == 'a' or session.x == 'b'` for a tool only some mode values call."""
    for mode in modes:
        values = [v.value for v in mode.values if tool.name in v.tools]
        if values:
            return " or ".join(f"session.{mode.field} == '{v}'" for v in values)
    return None


def success_signals(
    skill: Skill,
    tools: list[ToolUse],
    terminal: dict[str, str | None],
    complete: str | None,
) -> list[SuccessSignal]:
    out: list[SuccessSignal] = []
    for use in tools:
        if use.name not in terminal:
            continue
        condition = terminal[use.name]
        out.append(
            SuccessSignal(kind="tool", name=use.name, condition=condition, why="terminal tool")
        )
        for write in use.writes:
            out.append(
                SuccessSignal(
                    kind="memory",
                    name=write.key,
                    value=write.value if write.known else None,
                    condition=condition,
                    why=f"written by {use.name}",
                )
            )
        if use.gate and use.gate.on_success:
            out.append(
                SuccessSignal(
                    kind="response",
                    name=use.gate.on_success,
                    condition=condition,
                    why=f"on_success of {use.name}",
                )
            )
    for key in condition_keys(complete):
        if not any(s.kind == "memory" and s.name == key for s in out):
            out.append(SuccessSignal(kind="memory", name=key, why="complete_when waits for it"))
    if complete:
        out.append(
            SuccessSignal(
                kind="skill_completed",
                name=skill.id,
                condition=None,
                why=f"complete_when: {complete}",
            )
        )
    return out


__all__ = ["success_signals", "terminal_tools"]
