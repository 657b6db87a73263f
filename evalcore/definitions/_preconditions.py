"""Skill preconditions: which skills the runtime may route to, and the channel context that
opens them.

A skill's `precondition: <name>` is bound in `agent.yml` (`preconditions: {<name>:
<condition>}`), and the runtime filters routable skills by it (reference §3, step 1): a
skill whose condition is false is not offered, whatever the user says. So a case for such a
skill must start with the condition true. Where the condition reads only project fields
marked `seed: true`, the channel provides them at session start (a signed-in app, a staff
tablet), and `setup.initial_slots` is where a scenario says so; `opening_seeds` finds the
first such values that make the condition hold. A condition on a field a tool writes (a
sign-in another skill performs) cannot be seeded: the case has to sign in first, and
`opener_of` names the skill whose tools write it. `runs_first` lists every skill a skill has
run before its own work (that sign-in, one its prose runs first, one its block calls).
"""

from __future__ import annotations

import itertools
from functools import lru_cache
from typing import Any

from ._memo import memoized
from ._model import MantleDefinitions, Project, Skill
from .conditions import compared_values, condition_keys, evaluate

#: At most this many value combinations are tried (a precondition names a few fields).
_MAX_TRIES = 256


def precondition_of(defs: MantleDefinitions, skill_id: str) -> str | None:
    """The condition a skill's `precondition` is bound to in agent.yml, if any."""
    skill = defs.skills.get(skill_id)
    name = skill.frontmatter.get("precondition") if skill is not None else None
    if not name:
        return None
    bound = (defs.agent or {}).get("preconditions") or {}
    condition = bound.get(str(name)) if isinstance(bound, dict) else None
    return str(condition) if condition else None


def resolver_of(defs: MantleDefinitions, skill_id: str) -> str | None:
    """The skill the runtime runs first when the skill's precondition is false
    (`resolve_with` in agent.yml naming a skill, not a response): a request for the skill
    opens the resolver, and the skill follows once it made the condition true."""
    skill = defs.skills.get(skill_id)
    name = skill.frontmatter.get("precondition") if skill is not None else None
    resolvers = (defs.agent or {}).get("precondition_resolvers") or {}
    resolver = resolvers.get(str(name)) if name and isinstance(resolvers, dict) else None
    return str(resolver) if resolver in defs.skills and resolver != skill_id else None


def opening_seeds(project: Project, skill_id: str) -> dict[str, Any] | None:
    """Seed project fields -> values that make the skill's precondition true; `{}` for a
    skill without one, None when it reads a field the channel cannot seed."""
    return memoized(project, ("opening_seeds", skill_id), lambda: _seeds(project, skill_id))


def _seeds(project: Project, skill_id: str) -> dict[str, Any] | None:
    defs = project.mantle
    if defs is None:
        return {}
    condition = precondition_of(defs, skill_id)
    if condition is None:
        return {}
    keys = condition_keys(condition)
    fields = defs.memory_names()
    choices: list[list[Any]] = []
    for key in keys:
        field = fields.get(key)
        if field is None or not key.startswith("project.") or not field.seed:
            return None
        choices.append(_candidates(field, condition, key))
    for values in itertools.islice(itertools.product(*choices), _MAX_TRIES):
        memory = dict(zip(keys, values, strict=True))
        if evaluate(condition, memory):
            return memory
    return None


def opener_of(project: Project, skill_id: str) -> str | None:
    """The skill a case talks to first so the precondition of `skill_id` can hold: one
    whose tools write every field the condition reads that the channel cannot seed (a
    sign-in skill); None when the precondition can be seeded or no skill writes them."""
    return memoized(project, ("opener_of", skill_id), lambda: _opener(project, skill_id))


def _opener(project: Project, skill_id: str) -> str | None:
    defs = project.mantle
    if defs is None or opening_seeds(project, skill_id) is not None:
        return None
    condition = precondition_of(defs, skill_id)
    fields = defs.memory_names()
    needed = {k for k in condition_keys(condition) if not (k in fields and fields[k].seed)}
    for other in sorted(defs.skills):
        skill = defs.skills[other]
        if other == skill_id or skill.disabled or precondition_of(defs, other):
            continue
        written = _writes(project, other)
        if needed and needed <= written:
            return other
    return None


def runs_first(project: Project, skill: Skill, *, calls: bool = True) -> frozenset[str]:
    """The skills `skill` has run before its own work: one its prose runs first ("If
    @memory.project.authenticated is not true, run @skill.verify_patient first"), one a
    step of its blocks calls (`call:`; without `calls`, not those: a step may call it
    partway), the sign-in its precondition waits on."""
    defs = project.mantle
    found = set(_named_first(defs, skill, calls=calls)) if defs is not None else set()
    opener = opener_of(project, skill.id)
    if opener:
        found.add(opener)
    return frozenset(found)


def is_prerequisite(defs: MantleDefinitions, skill_id: str) -> bool:
    """Whether other skills run `skill_id` before their own work, by their prose, a block
    step or a precondition it resolves (`resolve_with` in agent.yml): a step of their
    tasks, which a caller asks for in their own words ("can you check it's me on file"),
    not by its name."""
    return skill_id in _prerequisites(defs)


def _prerequisites(defs: MantleDefinitions) -> frozenset[str]:
    """Every skill `is_prerequisite` holds for: one set per definitions (asked per skill,
    it read every skill's prose again for each), built again when the agent or the skills
    map is replaced or the map resized."""

    def build() -> frozenset[str]:
        found = {s for other in defs.skills.values() for s in _named_first(defs, other)}
        resolvers = (defs.agent or {}).get("precondition_resolvers") or {}
        if isinstance(resolvers, dict):
            gated = [s.frontmatter.get("precondition") for s in defs.skills.values()]
            found.update(
                resolver
                for name, resolver in resolvers.items()
                if isinstance(resolver, str) and name in gated
            )
        return frozenset(found)

    key = ("prerequisites", id(defs.agent), id(defs.skills), len(defs.skills))
    return memoized(defs, key, build)


def _named_first(defs: MantleDefinitions, skill: Skill, *, calls: bool = True) -> frozenset[str]:
    """The skills `skill`'s own text runs first: its prose ("run @skill.verify_patient
    first") and (with `calls`) its blocks' `call:` steps."""
    found = set(_prose_first(skill.body or ""))
    for block in skill.blocks.values() if calls else ():
        found.update(str(step.target) for step in block.steps if step.kind == "call")
    return frozenset(s for s in found if s in defs.skills and s != skill.id)


@lru_cache(maxsize=1024)
def _prose_first(body: str) -> frozenset[str]:
    """The skills a skill's prose runs first ("run @skill.verify_patient first"), by the
    text alone: kept per text, as the prose of a project's skills is read for each case."""
    # the skill model's package loads pydantic: light commands read preconditions without it
    from .skill_model import sentences  # start-up: pydantic, hashlib and 38 casegen modules

    found: set[str] = set()
    for part in sentences(body):
        words = [w.strip(".,;:()").lower() for w in part.text.split()]
        for index, word in enumerate(words):
            if word.startswith("@skill.") and "first" in words[max(0, index - 2) : index + 2]:
                found.add(word.removeprefix("@skill."))
    return frozenset(found)


def gate_seeds(project: Project, skill_id: str) -> dict[str, Any]:
    """Seed project fields -> values that open the `requires` of the skill's tools, for the
    fields nothing in the project writes: no tool's code, no `set_memory` step, no initial
    value, and never the model (Rasa's `set_fields` offers no project entry). Such a field
    is channel context (`project.lease_holder` from a signed-in app), so a case that calls
    the tool says so in `setup.initial_slots`; a field no case can seed keeps the gate
    shut (the interpreter never fills it)."""
    return memoized(project, ("gate_seeds", skill_id), lambda: _gate_seeds(project, skill_id))


def _writes(project: Project, skill_id: str, *, steps: bool = False) -> set[str]:
    """The entries the skill's tools' code writes (with `steps`, its `set_memory` steps
    too), qualified as Rasa resolves them."""
    from .skill_model import code_facts, qualify  # start-up: the skill model loads pydantic

    defs = project.mantle
    assert defs is not None
    out = {
        qualify(w.key, skill_id, defs)
        for tool in defs.tools_for(skill_id).values()
        for w in code_facts(project, tool).writes
    }
    if steps:
        out |= {
            qualify(str(key), skill_id, defs)
            for block in defs.skills[skill_id].blocks.values()
            for step in block.steps
            if step.kind == "set_memory" and isinstance(step.target, dict)
            for key in step.target
        }
    return out


def _written_anywhere(project: Project) -> frozenset[str]:
    """Every entry some skill's tools' code or `set_memory` steps write: one set per
    project, which each skill's gate seeds and shut gates read (built per skill, it read
    every skill again for each)."""

    def build() -> frozenset[str]:
        defs = project.mantle
        assert defs is not None
        return frozenset(k for other in defs.skills for k in _writes(project, other, steps=True))

    return memoized(project, ("written_anywhere",), build)


def _gate_seeds(project: Project, skill_id: str) -> dict[str, Any]:
    defs = project.mantle
    skill = defs.skills.get(skill_id) if defs is not None else None
    if defs is None or skill is None:
        return {}
    fields = defs.memory_names()
    written = _written_anywhere(project)
    out: dict[str, Any] = {}
    for constraint in skill.tool_constraints.values():
        condition = constraint.requires
        keys = condition_keys(condition) if condition else []
        seeded = [
            k
            for k in keys
            if k.startswith("project.")
            and k in fields
            and fields[k].seed
            and fields[k].initial_value is None
            and k not in written
        ]
        if not seeded or any(k not in fields for k in keys):
            continue
        choices = [
            [out[k]] if k in out else _candidates(fields[k], str(condition), k) for k in keys
        ]
        for values in itertools.islice(itertools.product(*choices), _MAX_TRIES):
            memory = dict(zip(keys, values, strict=True))
            if evaluate(str(condition), memory):
                out.update({k: memory[k] for k in seeded})
                break
    return out


def shut_gates(project: Project, skill_id: str) -> dict[str, str]:
    """Tool -> why its `requires` never holds: it reads a project entry nothing can write
    (not `seed: true`, no initial value, no tool's code or `set_memory` step writes it, and
    Rasa's `set_fields` never offers a project entry), or one no memory.yml declares (Rasa
    evaluates `requires` over declared memory). Rasa refuses every call of such a tool
    ("gating condition not met"); the reason names the file, line and entry."""
    return memoized(project, ("shut_gates", skill_id), lambda: _shut(project, skill_id))


def _shut(project: Project, skill_id: str) -> dict[str, str]:
    defs = project.mantle
    skill = defs.skills.get(skill_id) if defs is not None else None
    if defs is None or skill is None:
        return {}
    fields = defs.memory_names()
    written = _written_anywhere(project)
    try:
        lines = (project.root / skill.path / "skill.md").read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError):
        lines = []
    out: dict[str, str] = {}
    for tool, constraint in skill.tool_constraints.items():
        condition = str(constraint.requires or "")
        keys = condition_keys(condition) if condition else []
        shut = [
            k
            for k in keys
            if k.startswith("project.")
            and (
                k not in fields
                or not (fields[k].seed or fields[k].initial_value is not None or k in written)
            )
        ]
        if not shut:
            continue
        others = [k for k in keys if k not in shut]
        choices = [_candidates(fields[k], condition, k) if k in fields else [True] for k in others]
        tries = itertools.islice(itertools.product(*choices), _MAX_TRIES)
        if any(evaluate(condition, dict(zip(others, v, strict=True))) for v in tries):
            continue  # another branch of the condition opens it
        at = next((n for n, t in enumerate(lines, 1) if "requires:" in t and shut[0] in t), None)
        place = f"{skill.path}/skill.md:{at}" if at else f"{skill.path}/skill.md"
        key = shut[0]
        why = (
            "no memory.yml declares it (Rasa evaluates `requires` over declared memory)"
            if key not in fields
            else "it is not `seed: true`, has no initial_value, no tool's code or set_memory "
            "step writes it, and Rasa's set_fields never offers a project entry"
        )
        out[tool] = (
            f"{place}: {tool} has `requires: {condition}`, and nothing can write {key}: {why}; "
            f"Rasa refuses every call of {tool} (gating condition not met), so no run reaches "
            f"it and no case can assert it ran. Mark {key} `seed: true` in memory.yml if the "
            "channel provides it, or write it from a tool."
        )
    return out


def _candidates(field: Any, condition: str, key: str) -> list[Any]:
    """Values worth trying for one field: truth first, the literals the condition compares
    with, then the field's enum values."""
    if field.type == "bool":
        return [True, False]
    compared = compared_values(condition, key)
    if field.type in ("int", "float"):
        numbers = []
        for literal in compared:
            try:
                number = float(literal)
            except ValueError:
                continue
            numbers += [number + 1, number, number - 1]
        return [int(n) if field.type == "int" else n for n in numbers] or [1]
    values = [*compared, *(field.enum_values or [])]
    return list(dict.fromkeys(values)) or ["yes"]


__all__ = [
    "gate_seeds",
    "opener_of",
    "opening_seeds",
    "precondition_of",
    "resolver_of",
    "shut_gates",
]
