"""Where a skill's path forks: block `next` branches, prose `if:` lines, `if:` lines inside
step instructions, and modes (one field compared to several literals across those places).
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Any

from ...lexicon.notation.mantle_conditions import equal
from .._model import Skill
from ..conditions import compared_values, condition_keys
from ._text import paragraphs
from ._types import Branch, BranchOption, Mode, ModeValue, ToolUse, Where


def _label(text: str, words: int = 8) -> str:
    parts = text.split()
    return " ".join(parts[:words]) + (" …" if len(parts) > words else "")


def skill_branches(skill: Skill, file: str, prose_first_line: int) -> list[Branch]:
    out: list[Branch] = []
    for block in skill.blocks.values():
        for step in block.steps:
            if isinstance(step.next, list):
                keys = [k for b in step.next for k in condition_keys(b.condition)]
                out.append(
                    Branch(
                        kind="next",
                        block=block.id,
                        step=step.id,
                        keys=list(dict.fromkeys(keys)),
                        options=[
                            BranchOption(condition=b.condition, target=b.target) for b in step.next
                        ],
                        where=Where(
                            file=file, line=step.line, part=f"block {block.id} step {step.id}"
                        ),
                    )
                )
            if step.kind == "instructions":
                scoped = [p for p in paragraphs(str(step.target or "")) if p.condition]
                if scoped:
                    keys = [k for p in scoped for k in condition_keys(p.condition)]
                    out.append(
                        Branch(
                            kind="instruction_if",
                            block=block.id,
                            step=step.id,
                            keys=list(dict.fromkeys(keys)),
                            options=[
                                BranchOption(condition=p.condition, target=_label(p.text))
                                for p in scoped
                            ],
                            where=Where(
                                file=file, line=step.line, part=f"block {block.id} step {step.id}"
                            ),
                        )
                    )
    for para in paragraphs(skill.body, prose_first_line):
        if para.condition:
            out.append(
                Branch(
                    kind="prose_if",
                    keys=condition_keys(para.condition),
                    options=[BranchOption(condition=para.condition, target=_label(para.text))],
                    where=Where(file=file, line=para.line - 1, part="prose"),
                )
            )
    return out


def branched_keys(skill: Skill) -> set[str]:
    """The keys a path of the skill forks on: `next` branches, `if:` lines in prose and in
    step instructions, and `utter:` rules' `when` (not `complete_when` or a tool's
    `requires`, which only wait for a value)."""
    keys = {k for b in skill_branches(skill, "", 1) for k in b.keys}
    for rule in skill.utter:
        keys.update(condition_keys(rule.when))
    return keys


def equal_values(condition: str | None, key: str) -> list[Any]:
    """Literals the condition says `key` equals (`==` only; `!=` does not put a path there)."""
    if not condition:
        return []
    text = str(condition)
    if f"session.{key}" not in text:  # the pattern spells it: it cannot match
        return []
    out = []
    for match in _equal_pattern(key).finditer(text):
        literal = match.group(1)
        out.append(literal[1:-1] if literal[0] in "'\"" else literal)
    return out


@lru_cache(maxsize=4096)
def _equal_pattern(key: str) -> re.Pattern[str]:
    """Compiled once per key: a many-skill project has more keys than `re` caches."""
    return equal(key)


def _same(a: Any, b: Any) -> bool:
    return str(a).lower() == str(b).lower()


def skill_modes(
    skill: Skill, branches: list[Branch], tools: list[ToolUse], enum: dict[str, list[Any]]
) -> list[Mode]:
    """Fields compared with two or more literals (enum order first, then as written)."""
    conditions: list[tuple[str, Where | None]] = [
        (o.condition, b.where) for b in branches for o in b.options if o.condition
    ]
    literals: dict[str, list[Any]] = {}
    for condition, _ in conditions:
        for key in condition_keys(condition):
            for value in compared_values(condition, key):
                if value in ("true", "false"):
                    continue
                found = literals.setdefault(key, [])
                if not any(_same(value, v) for v in found):
                    found.append(value)
    out: list[Mode] = []
    for key, values in literals.items():
        if len(values) < 2 and not (len(values) == 1 and len(enum.get(key, [])) >= 2):
            continue
        declared = enum.get(key, [])
        ordered = [v for v in declared if any(_same(v, w) for w in values)]
        ordered += [v for v in values if not any(_same(v, w) for w in ordered)]
        mode_values = []
        for value in ordered:
            matching = [
                (c, w)
                for c, w in conditions
                if any(_same(value, v) for v in compared_values(c, key))
            ]
            under = [
                t.name
                for t in tools
                if any(
                    not c.optional and any(_same(value, v) for v in equal_values(c.condition, key))
                    for c in t.calls
                )
            ]
            mode_values.append(
                ModeValue(
                    value=value,
                    conditions=list(dict.fromkeys(c for c, _ in matching)),
                    tools=under,
                    where=[w for _, w in matching if w is not None],
                )
            )
        others = [v for v in declared if not any(_same(v, m.value) for m in mode_values)]
        out.append(Mode(field=key, values=mode_values, others=others))
    return out


__all__ = ["skill_branches", "skill_modes"]
