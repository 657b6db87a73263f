"""Equivalent mutants under the reference agent: no correct conversation tells them apart.

A case kills a mutant only when some assertion holds on the reference agent's run and not
on the mutant's. So a mutant is equivalent when, on every conversation a correct agent can
have, every Mantle assertion that holds for the reference agent holds for the mutant too.
The conversations are the paths the planner explores (`agentflows.planning.explore_mantle`:
every behaviour and candidate of every skill, with the project's initial values), each
played by the reference agent and again by the mutant. A mutant is equivalent when:

- it forgets an entry no memory schema declares: no assertion can name it (an unknown
  memory name) and Rasa rejects the write at runtime, so only the reference agent, which
  keeps it, ever records it;
- it is reached on some explored path, and on every one that reaches it the mutant's run
  leaves no mark an assertion could see (`_marks.difference`): the reference run's skills,
  blocks, memory writes (of declared entries), tool calls and responses appear in the
  mutant's run in the same order (positive checks and `sequencing` still hold), the
  mutant writes no key the reference run leaves unset and ends every key on the same value
  (`memory_was_not_set`), utters no response the reference run does not
  (`bot_did_not_utter`), and runs each turn's calls in the same turn with no extra call
  in a turn of two or more (`tools_within_one_turn`). A skipped step that branches counts
  only where no branch leading elsewhere than the following step can be taken in any
  explored memory state (the paths that reach it may not hold that memory there; a
  conversation can); or
- no explored path reaches it, and the definitions say why none can: every way to its
  site (each call of the tool, each write of the key, in every skill that has one) sits
  behind a gate (a prose `if:`, a tool's `requires`) that is false in every memory state of
  every explored path. A site with an ungated way (an `execute_tool` step, an optional call
  the reference agent leaves out, a question, a seeded field the channel writes), a gate
  or branch on a `seed: true` field (a case's `initial_slots` give it any value), or a
  site in a skill the planner could not explore, is not proven unreachable: the mutant
  applies (an `off_path` survivor, a coverage gap). So is a gate on an entry some path
  changes or a conversation decides (a field a skill asks, a flag it records, an
  `llm_settable` entry): the paths may just not have given that answer. A wrong argument
  is never proven on the paths (a call bare there may take arguments in another
  conversation); only the definitions prove it.

Kinds whose site is what the user says mid-skill (`ignore_digression`, `never_handoff`)
are never marked: the explored paths' scripted user never digresses or asks for a person.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from evalcore.agents.reference import Mutant, reached
from evalcore.definitions import Project, Skill
from evalcore.definitions.conditions import condition_keys, evaluate
from evalcore.definitions.skill_model import SkillModel, set_memory_keys, skill_models

from ._marks import difference

#: Mutants the explored paths cannot play: the user's own words reach their site.
USER_DRIVEN = frozenset({"ignore_digression", "never_handoff"})
_TOOL_KINDS = frozenset({"skip_confirmation", "drop_on_success", "wrong_argument", "fail_silently"})


def equivalent_mutants(
    project: Project, candidates: Iterable[Mutant], found: Any
) -> dict[str, str]:
    """Mutant id -> why no correct conversation tells it from the reference agent, for the
    `candidates` the exploration `found` (an `Exploration`) proves equivalent."""
    defs = project.mantle
    if defs is None:
        return {}
    models = skill_models(project)
    roots = {p.skill for p in found.paths}
    out: dict[str, str] = {}

    def declared(key: str) -> bool:
        return defs.memory_field(key) is not None

    for mutant in candidates:
        if mutant.equivalent is not None or mutant.kind in USER_DRIVEN:
            continue
        if mutant.kind == "forget_memory" and not declared(mutant.target or ""):
            out[mutant.id] = (
                f"no memory.yml declares {mutant.target}: an assertion naming it is an "
                "unknown memory name, and Rasa rejects the write at runtime"
            )
            continue
        holders = _holders(project, models, mutant)
        if not holders or any(h not in roots or h in found.unexplored for h in holders):
            continue
        reaching = [p for p in found.paths if reached(mutant, set(p.played.reached), defs)]
        if not reaching:
            why = _unreachable(project, models, mutant, holders, found.paths)
            if why is not None:
                out[mutant.id] = why
            continue
        if _branches_open(project, mutant, found.paths):
            continue  # skipping it would branch otherwise where some path's memory allows
        if mutant.kind == "wrong_argument":
            continue  # bare calls on these paths may take arguments in another conversation
        if all(difference(p.played, found.play(p, mutant), declared) is None for p in reaching):
            out[mutant.id] = (
                f"on each of the {len(reaching)} explored paths that reach it, the mutant's "
                "run leaves every mark a Mantle assertion can check exactly as a correct "
                "run does (skills, blocks, memory and its last values, tool calls and their "
                "turns, responses)"
            )
    return out


# --- can no path get there? -------------------------------------------------------------------


def _holders(project: Project, models: dict[str, SkillModel | None], mutant: Mutant) -> set[str]:
    """The skills where the mutant's site can be."""
    defs = project.mantle
    assert defs is not None
    target = mutant.target or ""
    if mutant.kind in _TOOL_KINDS:
        return {s for s, skill in defs.skills.items() if _runs(skill, models.get(s), target)}
    if mutant.kind in ("forget_memory", "wrong_enum"):
        return {
            s
            for s, skill in defs.skills.items()
            if _ways_to_write(defs, skill, models.get(s), target)
        }
    return {mutant.skill} if mutant.skill else set()


def _runs(skill: Skill, model: SkillModel | None, tool: str) -> bool:
    use = model.tool(tool) if model is not None else None
    return bool(use is not None and use.calls) or any(
        s.kind == "execute_tool" and str(s.target) == tool
        for b in skill.blocks.values()
        for s in b.steps
    )


def _tool_gates(skill: Skill, model: SkillModel | None, tool: str) -> list[str | None]:
    """The gate of each way the skill runs `tool` (None: a way with no gate)."""
    constraint = skill.tool_constraints.get(tool)
    requires = constraint.requires if constraint is not None else None
    gates: list[str | None] = []
    use = model.tool(tool) if model is not None else None
    for call in use.calls if use is not None else []:
        if call.kind in ("execute_tool", "block_tools"):
            gates.append(None)  # a step on its block's path: the block decides, not a gate
            continue
        parts = [f"({c})" for c in (call.condition, requires) if c]
        gates.append(" and ".join(parts) if parts else None)
    steps = [s for b in skill.blocks.values() for s in b.steps if s.kind == "execute_tool"]
    if any(str(s.target) == tool for s in steps) and not gates:
        gates.append(None)
    return gates


def _ways_to_write(defs: Any, skill: Skill, model: SkillModel | None, key: str) -> list[str | None]:
    """The gate of each way the skill writes `key` (None: a way with no gate)."""
    gates: list[str | None] = []
    for use in model.tools if model is not None else []:
        if any(w.key == key for w in use.writes):
            gates += _tool_gates(skill, model, use.name)
    for block in skill.blocks.values():
        for step in block.steps:
            if key in set_memory_keys(step, skill.id, defs):
                gates.append(None)
    if model is not None:
        gates += [f.condition for f in model.fields if f.qualified == key]
        gates += [r.condition for r in model.records if r.qualified == key]
    return gates


def _unreachable(
    project: Project,
    models: dict[str, SkillModel | None],
    mutant: Mutant,
    holders: set[str],
    paths: Sequence[Any],
) -> str | None:
    """Why no path can reach the mutant's site, or None when nothing proves it."""
    defs = project.mantle
    assert defs is not None
    target = mutant.target or ""
    if mutant.kind in ("forget_memory", "wrong_enum"):
        name = target.removeprefix("project.")
        declared = defs.memory.get(name) if target.startswith("project.") else None
        if declared is not None and declared.seed:
            return None  # the channel writes it: a case's initial slots reach it
    gates: list[str | None] = []
    for holder in sorted(holders):
        skill, model = defs.skills[holder], models.get(holder)
        if mutant.kind in _TOOL_KINDS:
            gates += _tool_gates(skill, model, target)
        elif mutant.kind in ("forget_memory", "wrong_enum"):
            gates += _ways_to_write(defs, skill, model, target)
        else:
            return None
    if not gates or any(g is None or _seeded(project, g) for g in gates):
        return None
    states = [state for p in paths for state in _states(p.played)]
    for gate in gates:
        if any(evaluate(gate, state) for state in states):
            return None
        if not _settled(project, models, str(gate), states):
            return None
    shown = sorted({str(g) for g in gates})
    where = ", ".join(sorted(holders))
    return (
        f"no explored path reaches it ({len(paths)} paths): every way to it ({where}) is "
        f"gated by {' / '.join(f'`{g}`' for g in shown)}, false in every memory state of "
        "every explored path, on entries no path changes and no user answer sets (the "
        "project's initial values, or an entry nothing can write)"
    )


def _settled(
    project: Project, models: dict[str, SkillModel | None], gate: str, states: Sequence[Any]
) -> bool:
    """Whether every entry the gate reads holds one value in every explored state (or none)
    and is none a conversation decides: no skill asks for it or records it, the model may
    not set it (`llm_settable`). A gate on an answer the paths happened not to give (a car
    that is not drivable) is not proof that no conversation gives it."""
    defs = project.mantle
    assert defs is not None
    decided = {f.qualified for m in models.values() if m is not None for f in m.fields}
    decided |= {r.qualified for m in models.values() if m is not None for r in m.records}
    for key in condition_keys(gate):
        field = defs.memory_field(key)
        if key in decided or (field is not None and (field.llm_settable or field.seed)):
            return False
        if len({repr(state.get(key)) for state in states}) > 1:
            return False
    return True


def _branches_open(project: Project, mutant: Mutant, paths: Sequence[Any]) -> bool:
    """For a skipped step that branches (`next:` with conditions): whether a branch that
    leads elsewhere than the following step (where a skipped step goes on) may be taken:
    an `else`, or a condition true in some memory state of some explored path. The paths
    that reach the step may not have held that memory there, but a conversation can."""
    if mutant.kind != "skip_step" or mutant.skill is None or mutant.target is None:
        return False
    defs = project.mantle
    assert defs is not None
    _, block_id, step_id = mutant.target.split(".", 2)
    block = defs.skills[mutant.skill].blocks.get(block_id)
    steps = list(block.steps) if block is not None else []
    index = next((i for i, s in enumerate(steps) if s.id == step_id), None)
    if index is None or not isinstance(steps[index].next, list):
        return False
    following = steps[index + 1].id if index + 1 < len(steps) else "END"
    elsewhere = [b for b in steps[index].next if b.target != following]
    if any(b.condition is None or _seeded(project, str(b.condition)) for b in elsewhere):
        return True
    states = [state for p in paths for state in _states(p.played)]
    return any(evaluate(str(b.condition), state) for b in elsewhere for state in states)


def _seeded(project: Project, condition: str) -> bool:
    """Whether the condition reads a `seed: true` project field: a case's `initial_slots`
    give it any value, not only the one the explored paths sampled."""
    defs = project.mantle
    assert defs is not None
    names = defs.memory_names()
    return any(k in names and names[k].seed for k in condition_keys(condition))


def _states(played: Any) -> Iterable[dict[str, Any]]:
    """Memory at the skill's opening and after each write of one run."""
    memory = dict(played.memory)
    yield dict(memory)
    for event in played.events:
        if event.get("event") == "memory_set" and event.get("key") != "session_started_metadata":
            memory[str(event.get("key"))] = event.get("value")
            yield dict(memory)


__all__ = ["USER_DRIVEN", "equivalent_mutants"]
