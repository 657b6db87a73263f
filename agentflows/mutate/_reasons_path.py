"""Why no passing case reaches a mutant's site: the gate the definitions put on it, and
whether only a negative check leads there (`off_path`, `needs_failure`; see `_reasons`)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from evalcore.agents.reference import Mutant
from evalcore.definitions import Block, Project, Skill
from evalcore.definitions.skill_model import clock_window_calls, skill_models, tool_keys
from evalcore.lexicon.en.field_name_words import PHONE as _PHONE

from ..planning.mantle_offers import session_fields

TOOL_KINDS = frozenset({"skip_confirmation", "drop_on_success", "wrong_argument", "fail_silently"})


@dataclass(frozen=True)
class Reason:
    code: str
    text: str

    def to_json(self) -> dict[str, str]:
        return {"reason": self.code, "why": self.text}


# --- off the path: why no case gets there -----------------------------------------------------


def off_path(project: Project, mutant: Mutant) -> Reason:
    """`off_path`, or `needs_failure` when only a negative check leads to the site."""
    defs = project.mantle
    skill = defs.skills.get(mutant.skill or "") if defs is not None else None
    site, gate = _site(project, skill, mutant)
    window = _clock_window(project, skill, mutant) if skill is not None else None
    if window is not None:
        return Reason(
            "outside",
            f"{site}: the prose makes the call only in a window of time its tool checks on "
            f'the run\'s clock ("{window}"), and which side of it a run falls on nothing in a '
            "case pins: the case judges that branch by its criterion, never an assertion",
        )
    if skill is not None and _past_negative(project, skill, mutant) and not _account_field(project):
        return Reason(
            "needs_failure",
            f"{site} lies only past a check that comes back negative: the project seeds no "
            "field (a caller phone) a failing or negative test account can go in",
        )
    where = f" ({gate})" if gate else ""
    return Reason("off_path", f"only on a path no verified case takes: {site}{where}")


def _clock_window(project: Project, skill: Skill, mutant: Mutant) -> str | None:
    """The sentence of the clock window the mutant's site lies behind (`clock_window_calls`:
    a tool the prose calls only "During business hours …", whose code checks the clock, or
    a key only such a tool writes), or None."""
    windows: dict[str, str] = {}
    for name, call in clock_window_calls(project, skill.id):
        windows.setdefault(name, call.sentence or "")
    if not windows:
        return None
    model = skill_models(project).get(skill.id)
    if mutant.kind in TOOL_KINDS:
        use = model.tool(mutant.target or "") if model is not None else None
        only = use is not None and all(c.sentence == windows.get(use.name) for c in use.calls)
        return windows[use.name] if use is not None and only else None
    if mutant.kind in ("forget_memory", "wrong_enum") and project.mantle is not None:
        tools = project.mantle.tools_for(skill.id)
        writers = [n for n, t in tools.items() if mutant.target in tool_keys(project, t, skill.id)]
        if writers and all(n in windows for n in writers):
            return windows[writers[0]]
    return None


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
    calls = use.calls if use is not None else []
    scopes = [c.condition for c in calls if c.condition]
    gate = f"`requires: {requires}`" if requires else None
    if scopes:
        scope = f"`if: {scopes[0]}`"
        gate = f"{gate}, {scope}" if gate else scope
    triggers = [c.trigger for c in calls if c.trigger and not c.condition]
    if triggers and len(triggers) == len(calls):  # only ever called on the user's cue
        cue = f"called only on the prose's cue: {triggers[0]!r}"
        gate = f"{gate}, {cue}" if gate else cue
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
    if mutant.kind in TOOL_KINDS or mutant.kind == "ignore_requires":
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
    """Does the project seed a field the drafter's test accounts go in (a caller phone, or
    a signed-in session's id its tools read, `planning._mantle_session`)?"""
    defs = project.mantle
    fields = defs.memory.values() if defs is not None else []
    if any(f.seed and any(w in f.name.lower() for w in _PHONE) for f in fields):
        return True
    skills = defs.skills if defs is not None else {}
    return any(f.type == "text" for s in skills for f in session_fields(project, s))


__all__ = ["TOOL_KINDS", "Reason", "off_path"]
