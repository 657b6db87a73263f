"""Equivalent mutants: faults the definitions prove can never change what the agent does.

A mutant whose fault has nothing to act on behaves exactly like the reference agent on
every conversation, so no case can kill it and counting it as a survivor would lower the
score for nothing. Only what follows from the definitions is marked, never "no case kills
it":

- `wrong_argument:<tool>`: every way the reference agent calls the tool passes no argument
  (its `execute_tool` steps have no `parameters`, and no parameter of a prose or
  instructions call can be filled: no memory entry the project can hold has the
  parameter's name, the skill model maps none, and no identity question asks for it). The
  fault alters an argument, and there is none to alter.
- `skip_step:<skill>.<block>.<step>`: the step is a `noop` (it does nothing when it runs)
  whose `next` always resolves to where the block goes on from it anyway (no `next`, the
  following step, or branches that all name the following step, one of them
  unconditional). Skipping it goes on at the following step, which is where it leads.
  The same holds for an `action` step whose response no responses file defines (the
  runtime utters nothing for it).

- `drop_on_success:<tool>`: the `on_success` it names is a response no responses file
  defines, so the reference agent utters nothing there either.
- `skip_confirmation`, `drop_on_success`, `wrong_argument`, `fail_silently` of a tool that
  only `tool_constraints` names (no prose, `instructions`, block `tools:` or `execute_tool`
  step of any skill calls it), and `forget_memory` of a key only such tools write: nothing
  tells the agent to call the tool, so the reference agent never does (a correct agent may
  or may not: no case may assert the call). The fault acts on a call that never happens.
  Its `ignore_requires` mutant (the tool run as the skill starts) is not marked: a case
  sees that call.

A skipped step goes on at the following step, not where its `next` would branch: leaving
out a routing `noop` that branches is a real fault (the branch is never taken).
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Collection, Iterator
from typing import Any

from ...definitions import MantleDefinitions, Project, Skill, Step, memo_of
from ...definitions.skill_model import SkillModel, ToolUse, set_memory_keys
from ._prose import prose_items


def _possible_keys(
    project: Project, models: dict[str, SkillModel | None]
) -> tuple[set[str], list[str]]:
    """Every memory key the reference agent can ever hold for this project, as a set and
    sorted (for `_fillable`'s bisection): a seeded project entry (only seeds reach memory
    from a case's `initial_slots`), any skill's own entry (asked, collected or recorded by
    its steps), a key a tool or `set_memory` writes, and a project entry a skill asks for.
    Worked out once per project and models: each `wrong_argument` mutant asks, and walking
    every skill for each grew as skills². One entry per definitions, holding the `models`
    it was built from and answering only that same mapping (`is`, not an id: a newer
    mapping may take a dead one's id); another mapping rebuilds it."""
    defs = project.mantle
    assert defs is not None
    memo = memo_of(defs)
    kept = memo.get("possible_keys")
    if kept is None or kept[0] is not models:
        keys = _keys(defs, models)
        kept = memo["possible_keys"] = (models, keys, sorted(keys))
    return kept[1], kept[2]


def _keys(defs: MantleDefinitions, models: dict[str, SkillModel | None]) -> set[str]:
    keys = {f"project.{name}" for name, entry in defs.memory.items() if entry.seed}
    for skill in defs.skills.values():
        keys |= {f.qualified for f in skill.memory.values()}
        for block in skill.blocks.values():
            for step in block.steps:
                if step.kind == "set_memory" and isinstance(step.target, dict):
                    for key in map(str, step.target):
                        keys.add(key if "." in key else f"{skill.id}.{key}")
        model = models.get(skill.id)
        for use in model.tools if model is not None else []:
            keys |= {w.key for w in use.writes}
        keys |= {f.qualified for f in model.fields} if model is not None else set()
    return keys


def _fillable(skill: Skill, use: ToolUse, param: str, pool: set[str], ordered: list[str]) -> bool:
    """Can `ModelBrain.arguments` ever fill `param` (it reads these keys)? `ordered` is
    `pool` sorted: the keys that start with the skill's id or `project.` are found by
    bisection, not by testing every skill's keys for each parameter."""
    if use.arguments.get(param):
        return True
    exact = {f"{skill.id}.{param}", f"project.{param}"}
    if exact & pool:
        return True
    suffix = "_" + param
    return any(k.endswith(suffix) for p in (skill.id, "project.") for k in _starting(ordered, p))


def _starting(ordered: list[str], prefix: str) -> Iterator[str]:
    """The keys of the sorted `ordered` that start with `prefix`."""
    at = bisect_left(ordered, prefix)
    while at < len(ordered) and ordered[at].startswith(prefix):
        yield ordered[at]
        at += 1


def no_arguments(
    project: Project, models: dict[str, SkillModel | None], skill: Skill, use: ToolUse
) -> str | None:
    """Why the reference agent calls `use` with no arguments on every path (None: it may
    pass some)."""
    defs = project.mantle
    assert defs is not None
    tool = defs.tools_for(skill.id).get(use.name)
    if tool is None:
        return None
    params = [
        p.name
        for p in tool.parameters
        if p.name != "context" and "ToolContext" not in (p.type or "")
    ]
    steps = {
        (b.id, s.id): s
        for b in skill.blocks.values()
        for s in b.steps
        if s.kind == "execute_tool" and str(s.target) == use.name
    }
    for step in steps.values():
        if step.fields.get("parameters"):
            return None
    model = models.get(skill.id)
    if model is None:
        return None
    identity = any(i.kind == "identity" and i.name == use.name for i in prose_items(skill, model))
    if identity:
        return None
    keys, ordered = _possible_keys(project, models)
    other_calls = [c for c in use.calls if c.kind != "execute_tool"]
    if other_calls and any(_fillable(skill, use, p, keys, ordered) for p in params):
        return None
    where = "its execute_tool steps pass no parameters" if steps else ""
    if other_calls:
        names = ", ".join(params) or "none"
        filled = f"no memory entry the agent can hold fills its parameters ({names})"
        where = f"{where}; {filled}" if where else filled
    return f"{use.name} is always called with no arguments: {where}"


class Uninstructed:
    """Which tools the reference agent never calls and which keys only such tools write,
    for every tool and key of one project (built for one `models`), read in one pass over
    its skills: asking per mutant scanned every skill for each, so listing a project's
    mutants cost the square of its skills. A skill the model cannot read proves nothing:
    the tools its `tool_constraints` name count as called, and no key is proven unwritten."""

    def __init__(self, project: Project, models: dict[str, SkillModel | None]) -> None:
        defs = project.mantle
        assert defs is not None
        self.project, self.models = project, models
        self._instructed: set[str] = set()  # some skill may call it
        self._named: set[str] = set()  # some skill's model names it in a call
        self._kept: set[object] = set()  # some step, field or record writes it
        self._writers: dict[object, set[str]] = {}
        self._unreadable = False  # a skill the model cannot read: nothing is proven
        for skill in defs.skills.values():
            for block in skill.blocks.values():
                for step in block.steps:
                    if step.kind == "execute_tool":
                        self._instructed.add(str(step.target))
                    self._kept.update(set_memory_keys(step, skill.id, defs))
            model = models.get(skill.id)
            if model is None:
                self._instructed.update(skill.tool_constraints)
                self._unreadable = True
                continue
            self._kept.update(f.qualified for f in model.fields)
            self._kept.update(r.qualified for r in model.records)
            seen: set[str] = set()
            for use in model.tools:
                for write in use.writes:
                    self._writers.setdefault(write.key, set()).add(use.name)
                if use.name in seen:
                    continue  # `SkillModel.tool` answers the first use of a name
                seen.add(use.name)
                if any(c.kind != "constraint" for c in use.calls):
                    self._instructed.add(use.name)
                elif use.calls:
                    self._named.add(use.name)

    def tool(self, tool: str) -> str | None:
        """Why the reference agent never calls `tool` (None: some skill may tell it to):
        every skill that knows the tool names it only in `tool_constraints`."""
        if tool in self._instructed or tool not in self._named:
            return None
        return _uninstructed_reason(tool)

    def key(self, key: str) -> str | None:
        """Why the reference agent never writes `key` (None: some way may): only tools it
        never calls (`tool`) write it; no `set_memory` step, field or record does."""
        if self._unreadable or key in self._kept:
            return None
        writers = self._writers.get(key, set())
        if not writers or any(self.tool(t) is None for t in writers):
            return None
        return _written_reason(key, writers)


def _uninstructed_reason(tool: str) -> str:
    return (
        f"only tool_constraints names {tool}: no prose, instructions, block tools or "
        "execute_tool step calls it, so the reference agent never does (nothing instructs "
        "the call, so no case may assert it) and the fault has no call to act on"
    )


def _written_reason(key: str, writers: set[str]) -> str:
    names = ", ".join(sorted(writers))
    return (
        f"only {names} writes {key}, and only tool_constraints names it: the reference "
        "agent never calls it (nothing instructs the call), so the key is never written"
    )


def _follows(step: Step, steps: list[Step], index: int) -> str | None:
    """Why the noop `step` leads where the block goes on after it anyway (None: it may
    branch elsewhere)."""
    following = steps[index + 1].id if index + 1 < len(steps) else "END"
    nxt: Any = step.next
    if nxt is None:
        return "it has no `next`"
    if isinstance(nxt, str):
        return f"its `next` is {nxt}, the following step" if nxt == following else None
    branches = list(nxt)
    if not branches or any(b.target != following for b in branches):
        return None
    if all(b.condition is not None for b in branches) and following != "END":
        return None  # no branch holds: the block ends instead of going on
    return f"every branch of its `next` goes to {following}, the following step"


def skipped_noop(
    skill: Skill, block_id: str, step_id: str, responses: Collection[str]
) -> str | None:
    """Why skipping this step cannot change a run (None: it may)."""
    block = skill.blocks.get(block_id)
    if block is None:
        return None
    steps = list(block.steps)
    index = next((i for i, s in enumerate(steps) if s.id == step_id), None)
    if index is None:
        return None
    step = steps[index]
    why = _follows(step, steps, index)
    if why is None:
        return None
    if step.kind == "noop":
        return f"{step_id} is a noop step (it does nothing) and {why}"
    if step.kind == "action" and str(step.target) not in responses:
        return f"{step_id} utters {step.target}, which no responses file defines, and {why}"
    return None


def silent_success(skill: Skill, tool: str, responses: Collection[str]) -> str | None:
    """Why dropping the tool's `on_success` cannot change a run (None: it may)."""
    constraint = skill.tool_constraints.get(tool)
    name = constraint.on_success if constraint is not None else None
    if name and name not in responses:
        return f"its on_success {name} is a response no responses file defines"
    return None


__all__ = [
    "Uninstructed",
    "no_arguments",
    "silent_success",
    "skipped_noop",
]
