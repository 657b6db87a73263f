"""Mutants of the reference agent, derived from a project's definitions.

A mutant is the reference agent with one fault put in on purpose; a suite that fails
against it "kills" it. The list comes from the definitions, so any project gets its own:

Kinds (the id is `<kind>:<target>`, or the kind alone for project-wide faults):
`skip_confirmation` (gated tools), `ignore_requires` (tools with `requires`), `skip_step`
(`<skill>.<block>.<step>`), `forget_memory` (keys tools or `set_memory` write), `wrong_enum`
(categorical fields), `drop_on_success`, `wrong_argument`, `fail_silently` (tools),
`ignore_digression` (2+ routable skills), `never_handoff` (a hand-off skill exists).
docs/verification.md says what each does.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from ...definitions import Project
from ...definitions.skill_model import set_memory_keys, skill_models
from ...errors import UserError
from ...suggest import did_you_mean
from ._equivalent import Uninstructed, no_arguments, silent_success, skipped_noop

#: Kinds whose fault acts on a call of the tool they name.
_CALL_KINDS = frozenset({"skip_confirmation", "drop_on_success", "wrong_argument", "fail_silently"})

KINDS = (
    "skip_confirmation",
    "ignore_requires",
    "skip_step",
    "forget_memory",
    "wrong_enum",
    "drop_on_success",
    "wrong_argument",
    "fail_silently",
    "ignore_digression",
    "never_handoff",
)

_WHAT = {
    "skip_confirmation": "runs {t} without reading the summary back or waiting for a yes",
    "ignore_requires": "runs {t} before its `requires` holds",
    "skip_step": "leaves out step {t}",
    "forget_memory": "never records {t}",
    "wrong_enum": "records the wrong value for {t}",
    "drop_on_success": "does not utter the on_success response of {t}",
    "wrong_argument": "calls {t} with a wrong argument",
    "fail_silently": "carries on as if {t} worked when it fails",
    "ignore_digression": "ignores a request for another skill mid-skill (no interrupt, no resume)",
    "never_handoff": "never hands the conversation to a person",
}


@dataclass(frozen=True)
class Mutant:
    kind: str
    target: str | None = None
    skill: str | None = None
    """The skill the fault lives in (None: the whole project)."""
    equivalent: str | None = None
    """Why the fault can never change a run, derived from the definitions (see
    `_equivalent`); None for a mutant a case can kill. Equivalent mutants are not played
    and not counted in the score."""

    @property
    def id(self) -> str:
        return self.kind if self.target is None else f"{self.kind}:{self.target}"

    @property
    def behaviour(self) -> str:
        """The fault in words: what no case catches when the mutant survives."""
        return _WHAT[self.kind].format(t=self.target or "")


def mutants(project: Project) -> list[Mutant]:
    """Every mutant that applies to the project, in a stable order; the ones the
    definitions prove equivalent carry the reason in `equivalent`."""
    defs = project.mantle
    if defs is None:
        return []
    out: list[Mutant] = []
    models = skill_models(project)
    written: dict[str, str] = {}
    for skill_id, skill in defs.skills.items():
        model = models.get(skill_id)
        uses = model.tools if model is not None else []
        for use in uses:
            if use.gated:
                out.append(Mutant("skip_confirmation", use.name, skill_id))
        for name, constraint in skill.tool_constraints.items():
            if constraint.requires:
                out.append(Mutant("ignore_requires", name, skill_id))
        for block in skill.blocks.values():
            for step in block.steps:
                if step.kind not in ("link", "end") and step.id != "END":
                    out.append(Mutant("skip_step", f"{skill_id}.{block.id}.{step.id}", skill_id))
                for key in set_memory_keys(step, skill_id, defs):  # a project field too
                    written.setdefault(key, skill_id)
        for use in uses:
            for write in use.writes:
                written.setdefault(write.key, skill_id)
        if model is not None:
            for record in model.records:  # a flag the agent records itself, from prose
                written.setdefault(record.qualified, skill_id)
            for spec in model.fields:
                if spec.type == "categorical" and len(spec.enum_values) >= 2:
                    out.append(Mutant("wrong_enum", spec.qualified, skill_id))
        for name, constraint in skill.tool_constraints.items():
            if constraint.on_success:
                out.append(Mutant("drop_on_success", name, skill_id))
        for use in uses:
            if use.defined and use.parameters and use.calls:
                out.append(Mutant("wrong_argument", use.name, skill_id))
        for use in uses:
            if use.defined and use.calls:
                out.append(Mutant("fail_silently", use.name, skill_id))
    out += [Mutant("forget_memory", key, skill) for key, skill in written.items()]
    never = Uninstructed(project, models)
    out = [_marked(project, models, never, m) for m in out]
    routable = [s for s in defs.skills.values() if not s.hidden and not s.disabled]
    if len(routable) >= 2:
        out.append(Mutant("ignore_digression"))
    if any(s.is_handoff for s in defs.skills.values()):
        out.append(Mutant("never_handoff"))
    unique: dict[str, Mutant] = {}
    for mutant in out:
        unique.setdefault(mutant.id, mutant)
    order = {kind: i for i, kind in enumerate(KINDS)}
    return sorted(unique.values(), key=lambda m: (order[m.kind], m.id))


def _marked(project: Project, models: dict, never: Uninstructed, mutant: Mutant) -> Mutant:
    """The mutant with its `equivalent` reason, when the definitions prove one."""
    defs = project.mantle
    skill = defs.skills.get(mutant.skill or "") if defs is not None else None
    if skill is None or mutant.target is None:
        return mutant
    why: str | None = None
    if mutant.kind in _CALL_KINDS:
        why = never.tool(mutant.target)
    elif mutant.kind == "forget_memory":
        why = never.key(mutant.target)
    if why is not None:
        return replace(mutant, equivalent=why)
    if mutant.kind == "wrong_argument":
        model = models.get(skill.id)
        use = model.tool(mutant.target) if model is not None else None
        why = no_arguments(project, models, skill, use) if use is not None else None
    elif mutant.kind == "skip_step":
        _, block, step = mutant.target.split(".", 2)
        why = skipped_noop(skill, block, step, defs.all_responses() if defs else {})
    elif mutant.kind == "drop_on_success":
        why = silent_success(skill, mutant.target, defs.all_responses() if defs else {})
    return replace(mutant, equivalent=why) if why else mutant


def find_mutant(project: Project, mutant_id: str) -> Mutant:
    """The mutant with that id; an unknown id is a UserError with a did-you-mean."""
    found = {m.id: m for m in mutants(project)}
    if mutant_id in found:
        return found[mutant_id]
    kind = mutant_id.partition(":")[0]
    hint = did_you_mean(mutant_id, list(found), what="mutant")
    if kind not in KINDS and not (hint or "").startswith("did you mean"):
        hint = did_you_mean(kind, KINDS, what="mutant kind") or "kinds: " + ", ".join(KINDS)
    raise UserError(
        f"no mutant '{mutant_id}' for {project.root}",
        hint=hint or f"{len(found)} mutants apply; `casegen mutate --list` names them",
    )


__all__ = ["KINDS", "Mutant", "find_mutant", "mutants"]
