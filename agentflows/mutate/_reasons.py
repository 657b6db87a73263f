"""Why a mutant survives a suite: a reason class derived from the definitions and the runs.

A surviving mutant is either a gap in the suite (a case could kill it and none does) or a
fault no correct case can catch. Each survivor gets one reason, proven from the project's
definitions and the reference agent's runs of the suite's passing cases, never from "no case
kills it" alone:

- `off_path`: no passing case reaches the fault's site (the tool never runs, the step's
  block never gets there, the key is never written); the reason names the condition that
  gates the site when the definitions give one (a tool's `requires`, the prose's `if:`, the
  `next` branch that leads to the step);
- `needs_failure`: the site lies only past a check that comes back negative or a tool that
  fails, and the project seeds no field the drafter's failing/negative test account can go
  in (a caller phone), so no case can put the backend in that state;
- `argument_from_result`: the argument the fault alters is not a value the user gave: it
  comes from another tool's result (a record the user picked from a listing included),
  a seeded entry no case seeds, or the agent's own choice, or the call has no arguments
  on the paths that reach it, so no value a case could assert for it holds for every
  correct agent;
- `no_mark`: the fault changes nothing Mantle's assertions can observe on the paths that
  reach it (an early extra call of a tool that writes no memory and utters nothing, when
  Mantle has no "tool not called" assertion);
- `unexplained`: a passing case reaches the site and no proven reason applies: the suite
  could kill it (a drafting gap).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from agentflows.generate._verify_paths import CasePath, _step_on_path, read_path
from evalcore.agents.reference import Mutant
from evalcore.agents.reference._faults import returned
from evalcore.definitions import Block, Project, Skill
from evalcore.definitions.skill_model import skill_models, tool_keys

REASONS = ("off_path", "needs_failure", "argument_from_result", "no_mark", "unexplained")
_TOOL_KINDS = frozenset({"skip_confirmation", "drop_on_success", "wrong_argument", "fail_silently"})
_PHONE = ("phone", "mobile", "msisdn")


@dataclass
class CaseRun:
    """One passing case's reference run: its tracker events and its assertions."""

    slug: str
    events: list[dict[str, Any]]
    checks: Any = None
    path: CasePath = field(init=False)

    def __post_init__(self) -> None:
        self.path = read_path(self.events, self.checks)


@dataclass(frozen=True)
class Reason:
    code: str
    text: str

    def to_json(self) -> dict[str, str]:
        return {"reason": self.code, "why": self.text}


def explain(project: Project, mutant: Mutant, runs: Sequence[CaseRun]) -> Reason:
    """The reason `mutant` survives the suite whose passing cases played `runs`."""
    reached = [r for r in runs if _reaches(project, mutant, r.path)]
    if not reached:
        return _off_path(project, mutant)
    if mutant.kind == "wrong_argument":
        found = _argument_source(project, mutant, reached)
        if found is not None:
            return found
    if mutant.kind == "ignore_requires":
        found = _no_mark(project, mutant)
        if found is not None:
            return found
    names = ", ".join(r.slug for r in reached[:3]) + (" …" if len(reached) > 3 else "")
    return Reason("unexplained", f"reached by {names}, but no assertion there catches it")


def explain_all(
    project: Project, survivors: Iterable[Mutant], runs: Sequence[CaseRun]
) -> dict[str, Reason]:
    return {m.id: explain(project, m, runs) for m in survivors}


# --- is the site on a path? -----------------------------------------------------------------


def _reaches(project: Project, mutant: Mutant, path: CasePath) -> bool:
    target = mutant.target or ""
    defs = project.mantle
    skills = defs.skills if defs is not None else {}
    if mutant.kind == "ignore_requires":  # the mutant runs it as its skill starts
        return mutant.skill in path.skills
    if mutant.kind in _TOOL_KINDS:
        return target in path.tools
    if mutant.kind == "skip_step":
        return _step_on_path(target, path, project)
    if mutant.kind in ("forget_memory", "wrong_enum"):
        return target in path.memory
    if mutant.kind == "ignore_digression":
        routable = {s for s, d in skills.items() if not d.hidden and not d.disabled}
        return path.interrupted or len(path.skills & routable) >= 2
    if mutant.kind == "never_handoff":
        return any(skills[s].is_handoff for s in path.skills if s in skills)
    return True


# --- off the path: why no case gets there -----------------------------------------------------


def _off_path(project: Project, mutant: Mutant) -> Reason:
    defs = project.mantle
    skill = defs.skills.get(mutant.skill or "") if defs is not None else None
    site, gate = _site(project, skill, mutant)
    if skill is not None and _past_negative(project, skill, mutant) and not _account_field(project):
        return Reason(
            "needs_failure",
            f"{site} lies only past a check that comes back negative: the project seeds no "
            "field (a caller phone) a failing or negative test account can go in",
        )
    where = f" ({gate})" if gate else ""
    return Reason("off_path", f"only on a path no verified case takes: {site}{where}")


def _site(project: Project, skill: Skill | None, mutant: Mutant) -> tuple[str, str | None]:
    target = mutant.target or ""
    if skill is None:
        return (mutant.id, None)
    if mutant.kind == "skip_step":
        _, block_id, step_id = target.split(".", 2)
        block = skill.blocks.get(block_id)
        branch = _branch_into(block, step_id) if block is not None else None
        return (f"step {target} never runs", f"reached when {branch}" if branch else None)
    if mutant.kind in ("forget_memory", "wrong_enum"):
        return (f"{target} is never written", None)
    constraint = skill.tool_constraints.get(target)
    requires = constraint.requires if constraint is not None else None
    model = skill_models(project).get(skill.id)
    use = model.tool(target) if model is not None else None
    scopes = [c.condition for c in (use.calls if use is not None else []) if c.condition]
    gate = f"`requires: {requires}`" if requires else None
    if scopes:
        scope = f"`if: {scopes[0]}`"
        gate = f"{gate}, {scope}" if gate else scope
    if mutant.kind == "ignore_requires":
        return (f"no verified case runs skill {skill.id}", gate)
    return (f"no verified case runs {target}", gate)


def _branch_into(block: Block, step_id: str) -> str | None:
    """The `next` branch that leads to the step, when only a branch does."""
    ids = [s.id for s in block.steps]
    for index, step in enumerate(block.steps):
        if isinstance(step.next, list):
            for branch in step.next:
                if branch.target == step_id:
                    return (
                        f"`{branch.condition}` after {step.id}"
                        if branch.condition
                        else (f"the `else` branch of {step.id}")
                    )
        elif step.next is None and index + 1 < len(ids) and ids[index + 1] == step_id:
            return None
    return None


def _negative_only(block: Block) -> set[str]:
    """Steps of the block reachable only through the `else` branch of an `execute_tool`
    step (a check that came back negative)."""
    ids = [s.id for s in block.steps]
    steps = {s.id: s for s in block.steps}

    def successors(step_id: str, *, negative: bool) -> list[str]:
        step = steps[step_id]
        index = ids.index(step_id)
        if step.kind in ("link", "end") or step.id == "END":
            return []
        if step.next is None:
            return ids[index + 1 : index + 2]
        if isinstance(step.next, str):
            return [step.next]
        out = []
        for branch in step.next:
            is_else = branch.condition is None and step.kind == "execute_tool"
            if negative or not is_else:
                out.append(branch.target)
        return out

    def reach(*, negative: bool) -> set[str]:
        seen: set[str] = set()
        todo = ids[:1]
        while todo:
            current = todo.pop()
            if current in seen or current not in steps:
                continue
            seen.add(current)
            todo += successors(current, negative=negative)
        return seen

    return reach(negative=True) - reach(negative=False)


def _past_negative(project: Project, skill: Skill, mutant: Mutant) -> bool:
    """Is the fault's site only ever reached past a negative check?"""
    target = mutant.target or ""
    negative: list[tuple[Block, str]] = [
        (b, s) for b in skill.blocks.values() for s in _negative_only(b)
    ]
    if not negative:
        return False
    if mutant.kind == "skip_step":
        _, block_id, step_id = target.split(".", 2)
        return any(b.id == block_id and s == step_id for b, s in negative)
    steps = [b.step(s) for b, s in negative]
    if mutant.kind in _TOOL_KINDS or mutant.kind == "ignore_requires":
        runs = [s for b in skill.blocks.values() for s in b.steps if s.kind == "execute_tool"]
        here = [s for s in runs if str(s.target) == target]
        return bool(here) and all(s in steps for s in here)
    if mutant.kind in ("forget_memory", "wrong_enum"):
        writers = [s for s in steps if s is not None and _writes(project, skill, s, target)]
        return bool(writers)
    return False


def _writes(project: Project, skill: Skill, step: Any, key: str) -> bool:
    if step.kind == "set_memory" and isinstance(step.target, dict):
        return any(key in (str(k), f"{skill.id}.{k}") for k in step.target)
    if step.kind == "execute_tool" and project.mantle is not None:
        tool = project.mantle.tools_for(skill.id).get(str(step.target))
        return tool is not None and key in tool_keys(project, tool, skill.id)
    return False


def _account_field(project: Project) -> bool:
    """Does the project seed a field the drafter's test accounts go in (a caller phone)?"""
    defs = project.mantle
    fields = defs.memory.values() if defs is not None else []
    return any(f.seed and any(w in f.name.lower() for w in _PHONE) for f in fields)


# --- on the path: faults no assertion can see -------------------------------------------------


def _argument_source(project: Project, mutant: Mutant, reached: Sequence[CaseRun]) -> Reason | None:
    """`argument_from_result` when, in every reached run, the argument the fault alters
    holds no value the user gave."""
    models = skill_models(project)
    model = models.get(mutant.skill or "")
    asked = {f.qualified for f in model.fields} if model is not None else set()
    sources: list[str] = []
    for run in reached:
        memory: dict[str, Any] = {}
        results: list[tuple[str, Any]] = []
        seeded = {str(e.get("key")) for e in run.events[:3] if e.get("event") == "memory_set"}
        for event in run.events:
            kind = event.get("event")
            if kind == "memory_set":
                memory[str(event.get("key"))] = event.get("value")
            elif kind == "tool_executed" and event.get("tool_name") == mutant.target:
                arguments = dict(event.get("arguments") or {})
                if not arguments:
                    sources.append(_bare(project, mutant))
                    continue
                given = [
                    k
                    for k, v in arguments.items()
                    if v is not None and any(memory.get(a) == v for a in asked)
                ]
                told = [k for k in given if not any(returned(r, arguments[k]) for _, r in results)]
                if told:
                    return None  # the user's own value: a case could assert it
                name, value = next(iter(arguments.items()))
                if name in given:
                    sources.append(f"argument {name} is a record the user picked from a result")
                else:
                    sources.append(_source_of(name, value, results, memory, seeded))
            if kind == "tool_executed":
                results.append((str(event.get("tool_name")), event.get("result")))
    if not sources:
        return None
    return Reason(
        "argument_from_result",
        f"{sources[0]}: no value a case could assert holds for every correct agent",
    )


def _bare(project: Project, mutant: Mutant) -> str:
    """Why a reached call had no argument for the fault to alter."""
    defs = project.mantle
    tool = defs.tools_for(mutant.skill or "").get(mutant.target or "") if defs else None
    params = [
        p.name
        for p in (tool.parameters if tool is not None else [])
        if p.name != "context" and "ToolContext" not in (p.type or "")
    ]
    names = ", ".join(params) or "none"
    return (
        f"{mutant.target} runs with no arguments on every verified path (its parameters, "
        f"{names}, come from memory only another tool or an unseeded entry fills)"
    )


def _source_of(
    name: str, value: Any, results: list[tuple[str, Any]], memory: dict[str, Any], seeded: set
) -> str:
    for tool, result in results:
        if returned(result, value):
            return f"argument {name} comes from {tool}'s result"
    for key, held in memory.items():
        if held == value and key.startswith("project."):
            how = "a seeded entry" if key in seeded else "project memory a tool wrote"
            return f"argument {name} comes from {key} ({how})"
    return f"argument {name} is a value the agent picks itself"


def _no_mark(project: Project, mutant: Mutant) -> Reason | None:
    """An early extra call of a tool that writes no memory and has no response leaves
    nothing an assertion can see once the real call runs too (Mantle has no assertion
    that a tool did not run, and `sequencing` allows gaps)."""
    defs = project.mantle
    skill = defs.skills.get(mutant.skill or "") if defs is not None else None
    if skill is None or defs is None:
        return None
    tool = defs.tools_for(skill.id).get(mutant.target or "")
    constraint = skill.tool_constraints.get(mutant.target or "")
    if tool is None or tool_keys(project, tool, skill.id):
        return None
    if constraint is not None and (constraint.on_success or constraint.on_failure):
        return None
    return Reason(
        "no_mark",
        f"{mutant.target} writes no memory and utters no response: an early extra call "
        "leaves nothing an assertion can see",
    )


__all__ = ["REASONS", "CaseRun", "Reason", "explain", "explain_all"]
