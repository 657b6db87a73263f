"""The value a tool-computed flag takes on the path that reaches a skill's goal.

A tool may write a boolean the definitions cannot determine (`too_early = date.today() <
earliest`), and a step's `next` may branch on it. Offline, nothing can know the real value,
so the planner's walk and the reference agent's fake backend must agree on one: the value
whose branch carries the block farthest (the branch that goes on to the remaining steps and
the skill's gated tool, not the one that answers and ends). A tie keeps `True`, the old
guess. A flag no `next` branches on but a tool's `requires` reads ("exam_current and not
controlled") takes the value that lets the tool run: the goal-reaching path is the one on
which the task's tool may run (where two tools' `requires` want opposite values, the tool
that writes what `complete_when` waits for decides; otherwise neither). The negative
account plays the other value.
"""

from __future__ import annotations

import re
from typing import Any

from .._memo import memoized
from .._model import Block, Project, Step
from ..conditions import condition_keys, conjuncts, evaluate
from ._code import UNKNOWN, code_facts, qualify


def branch_values(project: Project, skill_id: str) -> dict[str, bool]:
    """Qualified flag -> the value the goal-reaching path needs, for every boolean a tool of
    the skill writes without a literal and some step's `next` branches on."""
    return memoized(project, ("branch_values", skill_id), lambda: _values(project, skill_id))


def _values(project: Project, skill_id: str) -> dict[str, bool]:
    defs = project.mantle
    skill = defs.skills.get(skill_id) if defs is not None else None
    if defs is None or skill is None:
        return {}
    computed: set[str] = set()
    literal: set[str] = set()
    for tool in defs.tools_for(skill_id).values():
        for write in code_facts(project, tool).writes:
            key = qualify(write.key, skill_id, defs)
            (computed if write.value is UNKNOWN else literal).add(key)
    computed -= literal
    fields = defs.memory_names()
    out: dict[str, bool] = {}
    for block in skill.blocks.values():
        for step in block.steps:
            if not isinstance(step.next, list):
                continue
            for key in dict.fromkeys(k for b in step.next for k in condition_keys(b.condition)):
                field = fields.get(key)
                if key in out or key not in computed or field is None or field.type != "bool":
                    continue
                reach = {v: _reach(block, branch_target(step, {key: v})) for v in (True, False)}
                out[key] = reach[True] >= reach[False]
    flags = {k for k in computed if k not in out and getattr(fields.get(k), "type", None) == "bool"}
    out.update(_required_values(project, skill_id, flags))
    return out


def _required_values(project: Project, skill_id: str, flags: set[str]) -> dict[str, bool]:
    """Flag -> the value the `requires` of the skill's tools need for them to run (a part
    joined by a top-level `and` that reads one flag decides it)."""
    defs = project.mantle
    skill = defs.skills[skill_id] if defs is not None else None
    if defs is None or skill is None or not flags:
        return {}
    condition = (skill.complete_when or {}).get("condition")
    complete = set(condition_keys(condition if isinstance(condition, str) else None))
    tools = defs.tools_for(skill_id)
    votes: dict[str, dict[bool, bool]] = {}  # flag -> value -> asked by a completing tool
    for name, constraint in skill.tool_constraints.items():
        if not constraint.requires:
            continue
        tool = tools.get(name)
        facts = code_facts(project, tool).writes if tool else ()
        writes = {qualify(w.key, skill_id, defs) for w in facts}
        completing = bool(writes & complete)
        for part in conjuncts(constraint.requires) or [constraint.requires]:
            keys = condition_keys(part)
            if len(keys) != 1 or keys[0] not in flags:
                continue
            holds = [v for v in (True, False) if evaluate(part, {keys[0]: v})]
            if len(holds) == 1:
                by = votes.setdefault(keys[0], {})
                by[holds[0]] = by.get(holds[0], False) or completing
    out = {}
    for key, by in votes.items():
        chosen = list(by) if len(by) == 1 else [v for v, completing in by.items() if completing]
        if len(chosen) == 1:
            out[key] = chosen[0]
    return out


def branch_target(step: Step, memory: dict[str, Any]) -> str:
    """The step id (or END) a list `next` goes to over `memory`."""
    return next(
        (b.target for b in step.next or [] if b.condition is None or evaluate(b.condition, memory)),
        "END",
    )


def skipped_keys(block: Block, visited: set[str], skill_id: str) -> set[str]:
    """Memory the block's steps gather (a collect, what an instructions step waits for,
    a `set_memory`) on steps this run did not visit: after a branch ended the block (`next:
    END`), a prose-called tool waiting on one of them does not run, and the agent does not
    play those steps from the prose (ask for a read-back it skipped, invent the flag)."""
    out: set[str] = set()
    for step in block.steps:
        if step.id in visited:
            continue
        if step.kind == "collect" and step.target:
            out.add(qualify(str(step.target), skill_id))
        elif step.kind == "instructions":
            out.update(condition_keys(str(step.fields.get("complete_when") or "")))
        elif step.kind == "set_memory" and isinstance(step.target, dict):
            out.update(qualify(str(k), skill_id) for k in step.target)
    return out


def skipped_tools(block: Block, visited: set[str]) -> set[str]:
    """The block's `tools:` that only steps this run did not visit name in their
    instructions ("Go through the par sheet from lookup_par_levels" on the weekly step of a
    daily count): a block-level tool is one the model may call in the block, and it needs
    one where a step asks for what it gives; a run that skipped every such step has no use
    for it. A tool no step names stays offered."""
    tools = [str(t) for t in block.tools]
    out: set[str] = set()
    for name in tools:
        naming = {
            step.id
            for step in block.steps
            if step.kind == "instructions"
            and re.search(rf"(?<![\w]){re.escape(name)}(?!\w)", str(step.target or ""))
        }
        if naming and not naming & visited:
            out.add(name)
    return out


def _reach(block: Block, target: str) -> int:
    """How many steps a walk from `target` runs before the block ends."""
    ids = [s.id for s in block.steps]
    seen: set[str] = set()
    while target in ids and target != "END" and target not in seen:
        seen.add(target)
        index = ids.index(target)
        step = block.steps[index]
        if step.kind == "end":
            break
        if step.next is None:
            target = ids[index + 1] if index + 1 < len(ids) else "END"
        elif isinstance(step.next, str):
            target = step.next
        else:
            target = branch_target(step, {})
    return len(seen)


__all__ = ["branch_target", "branch_values", "skipped_keys"]
