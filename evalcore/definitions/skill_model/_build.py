"""Build (once per project) the `SkillModel` of a skill from blocks, prose and frontmatter.

    model = skill_model(project, "file_claim")
    model.terminal_tools(), model.modes, model.uncertainties

Success signals, in order of strength: the tools that write what `complete_when` waits for
(else tools with `on_success` or a confirmation gate, else per mode the tools only that mode
calls, else the last non-lookup tool), the memory they write, their `on_success` response,
and `skill_completed` when the skill has a `complete_when` condition.
"""

from __future__ import annotations

import weakref

from ..._readbytes import read_text
from ...errors import UserError
from ...lexicon.en.skill_rules import DISCLOSE as _DISCLOSE
from ...lexicon.en.skill_rules import MECHANICS as _MECHANICS
from ...lexicon.en.skill_rules import RULE as _RULE
from ...lexicon.notation.mantle_references import SKILL_TARGET as _SKILL_TARGET
from ...suggest import did_you_mean
from .._memo import memoized
from .._model import MantleDefinitions, Project, Skill
from ..conditions import condition_keys
from ._branches import skill_branches, skill_modes
from ._checks import checks
from ._fields import skill_fields
from ._records import skill_records
from ._success import success_signals, terminal_tools
from ._text import body_first_line, sentences
from ._tools import ToolReader, block_complete_when
from ._types import (
    Delegation,
    FieldSpec,
    Mode,
    Rule,
    SkillModel,
    ToolUse,
    Uncertainty,
    Where,
)

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
        text = read_text(project.root / skill.path / "skill.md")
    except (OSError, UnicodeDecodeError):
        return 1
    return body_first_line(text)


def build_skill_model(project: Project, skill_id: str) -> SkillModel:
    """Build the model (uncached); UserError when the skill does not exist."""
    defs = _defs(project)
    if skill_id not in defs.skills:
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
    enum = memoized(  # every field's, for each skill: kept per loaded definitions
        defs,
        "enum_lists",
        lambda: {k: list(f.enum_values or []) for k, f in defs.memory_names().items()},
    )
    modes = skill_modes(skill, branches, tools, enum)
    fields, unasked = _mode_requests(defs, skill, file, fields, modes, tools)
    records = skill_records(skill, file, first, fields)
    uncertainties += unasked
    complete = (skill.complete_when or {}).get("condition")
    criteria = [str(c) for c in (skill.complete_when or {}).get("criteria") or []]
    terminal = terminal_tools(skill, tools, modes, condition_keys(complete))
    tools = [t.model_copy(update={"terminal": t.name in terminal}) for t in tools]
    success = success_signals(skill, tools, terminal, complete)
    uncertainties += checks(defs, skill, file, tools, modes, branches, success, [*fields, *records])
    return SkillModel(
        skill=skill.id,
        name=skill.name,
        description=skill.description,
        file=file,
        fields=fields,
        records=records,
        tools=tools,
        branches=branches,
        modes=modes,
        delegations=_delegations(defs, skill, file, first),
        complete_when=complete,
        complete_criteria=criteria,
        block_complete_when=block_complete_when(skill),
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
    tools: list[ToolUse],
) -> tuple[list[FieldSpec], list[Uncertainty]]:
    """A mode field nothing asks for is read as stated in the user's request (recorded);
    one a tool of the skill writes is the tool's answer (a looked-up claim's status), never
    something the user states."""
    memory = defs.memory_names()
    known = {f.qualified for f in fields} | {w.key for t in tools for w in t.writes}
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
        for target in _SKILL_TARGET.findall(sentence.text):
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


__all__ = ["build_skill_model", "skill_model", "skill_models"]
