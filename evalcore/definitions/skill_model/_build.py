"""Build (once per project) the `SkillModel` of a skill from blocks, prose and frontmatter.

    model = skill_model(project, "file_claim")
    model.terminal_tools(), model.modes, model.uncertainties

Success signals, in order of strength: the tools that write what `complete_when` waits for
(else tools with `on_success` or a confirmation gate, else per mode the tools only that mode
calls, else the last non-lookup tool), the memory they write, their `on_success` response,
and `skill_completed` when the skill has a `complete_when` condition.
"""

from __future__ import annotations

import re
import weakref
from typing import Any

from ...errors import UserError
from .._model import MantleDefinitions, Project, Skill
from ..conditions import condition_keys, evaluate
from ._branches import skill_branches, skill_modes
from ._fields import skill_fields
from ._text import body_first_line, sentences
from ._tools import ToolReader
from ._types import (
    Delegation,
    FieldSpec,
    Mode,
    Rule,
    SkillModel,
    SuccessSignal,
    ToolUse,
    Uncertainty,
    Where,
)

_LOOKUP = re.compile(r"^(get|list|lookup|look_up|find|check|verify|search|fetch|read|load)_")
_RULE = re.compile(
    r"\b(never|do\s+not|don't|must\s+not|under\s+no\s+circumstances|not\s+allowed)\b", re.I
)
_DISCLOSE = re.compile(
    r"\b(?:never|not|under\s+no\s+circumstances)\s+(?:\w+\s+){0,3}?"
    r"(disclose|reveal|share|read\s+out|say|tell|give|show|expose|mention|repeat|spell|"
    r"confirm\s+which|promise|guarantee|invent|make\s+up|advise|recommend|diagnos)\w*",
    re.I,
)
_MECHANICS = re.compile(r"@tool\.|\bconfirm(ation)?\b.*\bown\s+words\b|\border\s+again\b", re.I)

_CACHE: dict[int, tuple[weakref.ref[Project], dict[str, SkillModel]]] = {}


def skill_model(project: Project, skill_id: str) -> SkillModel:
    """The model of `skill_id`, built on first use and cached for this `Project` object."""
    key = id(project)
    entry = _CACHE.get(key)
    if entry is None or entry[0]() is not project:
        entry = (weakref.ref(project, lambda _r: _CACHE.pop(key, None)), {})
        _CACHE[key] = entry
    models = entry[1]
    if skill_id not in models:
        models[skill_id] = build_skill_model(project, skill_id)
    return models[skill_id]


def skill_models(project: Project) -> dict[str, SkillModel]:
    """Every skill's model (cached)."""
    defs = _defs(project)
    return {s: skill_model(project, s) for s in sorted(defs.skills)}


def _defs(project: Project) -> MantleDefinitions:
    if project.mantle is None:
        raise UserError(f"{project.root} is not a Mantle project")
    return project.mantle


def _prose_first_line(project: Project, skill: Skill) -> int:
    try:
        text = (project.root / skill.path / "skill.md").read_text(encoding="utf-8")
    except OSError:
        return 1
    return body_first_line(text)


def build_skill_model(project: Project, skill_id: str) -> SkillModel:
    """Build the model (uncached); UserError when the skill does not exist."""
    defs = _defs(project)
    if skill_id not in defs.skills:
        from ...suggest import did_you_mean

        raise UserError(
            f"{project.root} has no Mantle skill '{skill_id}'",
            hint=did_you_mean(skill_id, defs.skills, what="skill"),
        )
    skill = defs.skills[skill_id]
    file = f"{skill.path}/skill.md"
    first = _prose_first_line(project, skill)
    reader = ToolReader(project, defs, skill, file)
    reader.read_blocks()
    reader.read_prose(first)
    reader.scope_blocks(first)
    tools = reader.uses()
    uncertainties = list(reader.uncertainties)
    fields = skill_fields(defs, skill, file, first)
    branches = skill_branches(skill, file, first)
    enum = {k: list(f.enum_values or []) for k, f in defs.memory_names().items()}
    modes = skill_modes(skill, branches, tools, enum)
    fields, unasked = _mode_requests(defs, skill, file, fields, modes)
    uncertainties += unasked
    complete = (skill.complete_when or {}).get("condition")
    criteria = [str(c) for c in (skill.complete_when or {}).get("criteria") or []]
    terminal = _terminal(skill, tools, modes, condition_keys(complete))
    tools = [t.model_copy(update={"terminal": t.name in terminal}) for t in tools]
    success = _success(skill, tools, terminal, modes, complete)
    uncertainties += _checks(defs, skill, file, tools, modes, branches, success, fields)
    return SkillModel(
        skill=skill.id,
        name=skill.name,
        description=skill.description,
        file=file,
        fields=fields,
        tools=tools,
        branches=branches,
        modes=modes,
        delegations=_delegations(defs, skill, file, first),
        complete_when=complete,
        complete_criteria=criteria,
        success=success,
        rules=_rules(skill, file, first),
        uncertainties=list(dict.fromkeys(uncertainties)),
        is_handoff=skill.is_handoff,
    )


def _mode_requests(
    defs: MantleDefinitions,
    skill: Skill,
    file: str,
    fields: list[FieldSpec],
    modes: list[Mode],
) -> tuple[list[FieldSpec], list[Uncertainty]]:
    """A mode field nothing asks for is read as stated in the user's request (recorded)."""
    memory = defs.memory_names()
    known = {f.qualified for f in fields}
    out, notes = list(fields), []
    for mode in modes:
        field = memory.get(mode.field)
        if field is None or mode.field in known or field.namespace != skill.id:
            continue
        where = mode.values[0].where[0] if mode.values and mode.values[0].where else None
        where = where or Where(file=file)
        out.append(
            FieldSpec(
                qualified=field.qualified,
                name=field.name,
                namespace=field.namespace,
                type=field.type,
                asked_by="request",
                enum_values=list(field.enum_values or [v.value for v in mode.values]),
                description=field.description,
                where=where,
            )
        )
        notes.append(
            Uncertainty(
                what=f"how {field.qualified} is set",
                where=where,
                why="the prose branches on it but never asks for it; read as what the "
                "user's first message asks for",
            )
        )
    return out, notes


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


def _terminal(
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
        t.name: _mode_condition(t, modes) or _call_condition(t) for t in chosen
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


def _mode_condition(tool: ToolUse, modes: list[Mode]) -> str | None:
    """`session.x == 'a' or session.x == 'b'` for a tool only some mode values call."""
    for mode in modes:
        values = [v.value for v in mode.values if tool.name in v.tools]
        if values:
            return " or ".join(f"session.{mode.field} == '{v}'" for v in values)
    return None


def _success(
    skill: Skill,
    tools: list[ToolUse],
    terminal: dict[str, str | None],
    modes: list[Mode],
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


def _delegations(defs: MantleDefinitions, skill: Skill, file: str, first: int) -> list[Delegation]:
    out: list[Delegation] = []
    for block in skill.blocks.values():
        for step in block.steps:
            if step.kind in ("call", "link") and str(step.target) in defs.skills:
                out.append(
                    Delegation(
                        kind=step.kind,  # type: ignore[arg-type]
                        target=str(step.target),
                        block=block.id,
                        step=step.id,
                        where=Where(
                            file=file, line=step.line, part=f"block {block.id} step {step.id}"
                        ),
                    )
                )
    for sentence in sentences(skill.body, first):
        for target in re.findall(r"@skill\.([\w-]+)", sentence.text):
            if target in defs.skills and target != skill.id:
                out.append(
                    Delegation(
                        kind="mention",
                        target=target,
                        condition=sentence.condition,
                        where=Where(file=file, line=sentence.line),
                    )
                )
    return out


def _rules(skill: Skill, file: str, first: int) -> list[Rule]:
    out: list[Rule] = []
    for sentence in sentences(skill.body, first):
        text = sentence.text
        if _RULE.search(text) and _DISCLOSE.search(text) and not _MECHANICS.search(text):
            out.append(Rule(text=text, where=Where(file=file, line=sentence.line)))
    return out


def _checks(
    defs: MantleDefinitions,
    skill: Skill,
    file: str,
    tools: list[ToolUse],
    modes: list[Mode],
    branches: list[Any],
    success: list[SuccessSignal],
    fields: list[Any],
) -> list[Uncertainty]:
    """Places where the definitions leave the path open."""
    out: list[Uncertainty] = []
    memory = defs.memory_names()
    settable = {f.qualified for f in fields} | {w.key for t in tools for w in t.writes}
    settable |= {f.qualified for f in memory.values() if f.llm_settable or f.seed}
    for block in skill.blocks.values():
        for step in block.steps:
            if step.kind == "set_memory" and isinstance(step.target, dict):
                settable |= {
                    k if str(k).startswith("project.") else f"{skill.id}.{k}" for k in step.target
                }
    for use in tools:
        if not use.defined:
            out.append(
                Uncertainty(
                    what=f"tool {use.name}",
                    where=(
                        use.calls[0].where if use.calls and use.calls[0].where else Where(file=file)
                    ),
                    why="the skill mentions or constrains it, but no local, imported or MCP tool "
                    "of that name exists",
                )
            )
        if use.gate and use.gate.requires:
            unset = [k for k in use.gate.requires_keys if k not in settable]
            if unset:
                out.append(
                    Uncertainty(
                        what=f"requires of {use.name}",
                        where=Where(file=file, part="frontmatter"),
                        why="nothing the skill asks or runs sets "
                        + ", ".join(unset)
                        + "; the walk assumes the agent sets it from the conversation",
                    )
                )
    for branch in branches:
        for option in branch.options:
            for key in condition_keys(option.condition):
                if key not in memory:
                    out.append(
                        Uncertainty(
                            what=f"condition '{option.condition}'",
                            where=branch.where or Where(file=file),
                            why=f"{key} is not declared memory",
                        )
                    )
    for mode in modes:
        declared = memory.get(mode.field)
        allowed = [str(v).lower() for v in (declared.enum_values or [])] if declared else []
        for value in mode.values:
            if allowed and str(value.value).lower() not in allowed:
                out.append(
                    Uncertainty(
                        what=f"mode {mode.field} == {value.value!r}",
                        where=value.where[0] if value.where else Where(file=file),
                        why="the value is not one of the field's enum_values",
                    )
                )
    for mode in modes:
        for value in mode.values:
            state = {mode.field: value.value}
            if any(evaluate(s.condition, state) for s in success if s.kind != "skill_completed"):
                continue
            out.append(
                Uncertainty(
                    what=f"success when {mode.field} == {value.value!r}",
                    where=value.where[0] if value.where else Where(file=file),
                    why="no tool, memory write or response marks this path's success; it is "
                    "judged from the conversation (criteria) only",
                )
            )
    if not any(s.kind == "tool" for s in success):
        out.append(
            Uncertainty(
                what="success signal",
                where=Where(file=file, part="frontmatter"),
                why="no tool completes the skill's task; success is judged from the "
                "conversation (criteria) only",
            )
        )
    if not skill.complete_when:
        out.append(
            Uncertainty(
                what="completion",
                where=Where(file=file, part="frontmatter"),
                why="no complete_when: the agent decides when the skill is done, so "
                "skill_completed is not certain",
            )
        )
    return out


__all__ = ["build_skill_model", "skill_model", "skill_models"]
