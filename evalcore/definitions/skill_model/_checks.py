"""Where the definitions leave a skill's path open: the skill model's uncertainties."""

from __future__ import annotations

from typing import Any

from .._memo import memoized
from .._model import MantleDefinitions, Skill
from ..conditions import condition_keys, evaluate
from ._types import Mode, SuccessSignal, ToolUse, Uncertainty, Where


def checks(
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
    settable = {f.qualified for f in fields} | {w.key for t in tools for w in t.writes}
    settable |= _model_settable(defs)
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
                if defs.memory_field(key) is None:
                    out.append(
                        Uncertainty(
                            what=f"condition '{option.condition}'",
                            where=branch.where or Where(file=file),
                            why=f"{key} is not declared memory",
                        )
                    )
    for mode in modes:
        declared = defs.memory_field(mode.field)
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


__all__ = ["checks"]


def _model_settable(defs: MantleDefinitions) -> frozenset[str]:
    """Every entry the model may set or a seed fills (qualified), kept per loaded
    definitions and shape of their memory: each skill's checks ask, and the set holds
    every skill's entries."""
    shape = (id(defs.memory), len(defs.memory), id(defs.skills), len(defs.skills))
    return memoized(
        defs,
        ("model_settable", shape),
        lambda: frozenset(
            f.qualified for f in defs.memory_names().values() if f.llm_settable or f.seed
        ),
    )
