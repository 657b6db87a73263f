"""The tools a Mantle case expects to run whose code acts on a service outside the agent.

A case that asserts `tool_executed` of such a tool (without `is_error: true`) does what the
tool does wherever the run's environment holds the service's credentials: it posts, sends,
books for real. The case file says so above its scenario and `generate` lists it, so a
reviewer knows before anyone runs it (`evalcore.definitions.skill_model.outside_effect`).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from ...definitions import MantleDefinitions, Project, ToolDef, memoized
from ...justify import Note

if TYPE_CHECKING:
    from ...definitions.skill_model import OutsideEffect


def outside_effects(data: Any, project: Project | None) -> list[OutsideEffect]:
    """The effects of the tools a run of `data` makes that change something outside (one
    per tool): those it expects to run, local or an MCP server's, in the order it names
    them, then those of a detour's skill it names none of (`detour_effects`), less those it
    expects not to run."""
    if project is None or project.mantle is None:
        return []
    model = _skill_model()
    out: dict[str, OutsideEffect] = {}
    for name, tool in ran_tools(data, project.mantle):
        effect = model.tool_effect(project, tool)
        if effect is not None and effect.changes and name not in out:
            out[name] = effect
    # a call its criterion judges on either side of a clock window: inside it, a correct
    # agent makes the call for real (`quoted_windows`)
    for skill_id, name, _call in model.quoted_windows(project, case_criteria(data)):
        tool = project.mantle.tools_for(skill_id).get(name)
        effect = model.tool_effect(project, tool) if tool is not None else None
        if effect is not None and effect.changes and name not in out:
            out[name] = effect
    avoided = set(_names(data, "tool_not_executed"))
    for skill in _detours(data):
        for effect in model.detour_effects(project, skill):
            if effect.tool not in out and effect.tool not in avoided:
                out[effect.tool] = effect
    return list(out.values())


def _skill_model() -> Any:
    """The skill model, imported on first use: its types load pydantic, and `validate`
    imports this dialect but never asks."""
    from ...definitions import skill_model  # start-up: pydantic, hashlib and 35 casegen modules

    return skill_model


def case_criteria(data: Any) -> list[str]:
    """The case's criteria (none where its document has no goals)."""
    scenario = data.get("scenario") if isinstance(data, dict) else None
    goals = scenario.get("goals") if isinstance(scenario, dict) else None
    criteria = goals.get("criteria") if isinstance(goals, dict) else None
    return [c for c in criteria or [] if isinstance(c, str)]


def _detours(data: Any) -> list[str]:
    """The skills a case's detour enters: activated while a skill it names is parked
    (`skill_interrupted`), other than a parked one."""
    parked = set(_names(data, "skill_interrupted", "skill_id"))
    if not parked:
        return []
    entered = _names(data, "skill_activated", "skill_id")
    return [s for s in dict.fromkeys(entered) if s not in parked]


def _names(data: Any, kind: str, key: str = "tool_name") -> list[str]:
    """`key` of every `kind` body of the case's assertions (in `sequencing` too)."""
    return [str(b[key]) for k, b in _bodies(data) if k == kind and b.get(key)]


def ran_tools(data: Any, defs: MantleDefinitions) -> Iterator[tuple[str, ToolDef]]:
    """(name, definition) of each tool the case expects to run without an error, in the
    order it names them: in the skill its check names, else in every skill that has one
    by that name (the case's file notes read the tool's code through these)."""
    for body in _ran(data):
        name = str(body.get("tool_name") or "")
        skills = [str(body["skill_id"])] if body.get("skill_id") else defs.skills_calling(name)
        for skill in skills:
            tool = defs.tools_for(skill).get(name) if skill in defs.skills else None
            if tool is not None:
                yield name, tool


def outside_notes(data: Any, project: Project | None) -> list[Note]:
    """One `# outside service: …` comment line above the scenario per such tool; where the
    case expects a later tool the runtime runs only on what that tool's service answered
    (a restock order placed with the count id the service returned), the line says those
    checks hold where the service, or a sandbox standing in for it, accepts the request."""
    notes: list[Note] = []
    for effect in outside_effects(data, project):
        text = effect.sentence()
        after = _resting_on(data, project, effect)
        if after:
            text += (
                f"; the checks of {', '.join(after)} hold only where the service (or a sandbox "
                f"standing in for it) accepts that request, since the runtime runs "
                f"{'them' if len(after) > 1 else 'it'} on its answer"
            )
        notes.append(Note("", text, label="outside service"))
    return notes


def _resting_on(data: Any, project: Project | None, effect: OutsideEffect) -> list[str]:
    """The tools `data` expects to run whose `requires`, or whose block step's parameters,
    read a key `effect`'s tool writes from its service's answer, in the case's order."""
    if project is None or project.mantle is None or not effect.answered:
        return []
    defs = project.mantle
    out: list[str] = []
    for body in _ran(data):
        name = str(body.get("tool_name") or "")
        if name == effect.tool or name in out:
            continue
        if body.get("skill_id"):
            rests = _reads_answer(project, str(body["skill_id"]), name, effect)
        else:  # without the check's skill, only the skills that can run the effect's tool
            rests = memoized(
                project,
                ("outside-rests-on", effect.tool, effect.answered, name),
                lambda name=name: any(
                    _reads_answer(project, skill, name, effect)
                    for skill in defs.skills_calling(effect.tool)
                ),
            )  # once per project: a shared tool's callers grow with the skills
        if rests:
            out.append(name)
    return out


def _reads_answer(project: Project, skill: str, name: str, effect: OutsideEffect) -> bool:
    """Whether `skill`, which can run `effect`'s tool, reads what it answers before it runs
    `name`."""
    defs = project.mantle
    assert defs is not None
    if effect.tool not in defs.tools_for(skill):
        return False
    reads = _skill_model().runtime_reads(project, skill, name)
    return any(k == f"{skill}.{a}" for k in reads for a in effect.answered)


def _ran(data: Any) -> Iterator[dict[str, Any]]:
    """Every `tool_executed` body of the case's assertions (in `sequencing` too) that
    does not expect an error."""
    for key, body in _bodies(data):
        if key == "tool_executed" and body.get("tool_name") and body.get("is_error") is not True:
            yield body


def _bodies(data: Any) -> Iterator[tuple[str, dict[str, Any]]]:
    """(kind, body) of every mapping-bodied assertion of the case, `sequencing`'s too."""
    scenario = data.get("scenario") if isinstance(data, dict) else None
    goals = scenario.get("goals") if isinstance(scenario, dict) else None
    todo = list(goals.get("assertions") or []) if isinstance(goals, dict) else []
    while todo:
        item = todo.pop(0)
        if not isinstance(item, dict):
            continue
        for key, body in item.items():
            if key == "sequencing" and isinstance(body, list):
                todo.extend(body)
            elif isinstance(body, dict):
                yield str(key), body


__all__ = ["outside_effects", "outside_notes"]
