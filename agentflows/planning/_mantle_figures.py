"""Figures of a Mantle project's plan: is every happy path walked to its success signal, does
every confirmation-gated tool get a refusal, how much did the skill model leave uncertain.

    figures = plan_figures(load_project(Path("tests/data/corpus/claims")))
    figures["happy_reaching_success"], figures["happy_paths"]

`benchmarks/skill_paths.py` prints these per project; tests hold them at their targets. A
happy path whose skill model names no success signal for it (a mode that only informs, with
an uncertainty recorded) is counted apart, not as reaching or missing success.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from evalcore.definitions import Project
from evalcore.definitions.skill_model import skill_model

from ._mantle import behavior_setup, channel_memory, plan_mantle
from ._mantle_walk import walk_skill


def plan_figures(project: Project) -> dict[str, Any]:
    """Counts over every skill's plan (see the module docstring)."""
    assert project.mantle is not None
    defs = project.mantle
    kinds: Counter[str] = Counter()
    happy = reaching = gated = refused = uncertain = unsignalled = 0
    missing: list[str] = []
    unrefused: list[str] = []
    memory = channel_memory(defs)
    for skill_id in sorted(defs.skills):
        model = skill_model(project, skill_id)
        uncertain += len(model.uncertainties)
        plan = plan_mantle(project, skill_id, None)
        refusals = set()
        for behavior in plan.behaviors:
            kind = str(behavior.facts.get("kind"))
            kinds[kind] += 1
            if kind == "refusal":
                refusals.add(str(behavior.facts.get("tool")))
            if kind != "happy":
                continue
            walk = walk_skill(project, skill_id, behavior_setup(behavior.facts, memory))
            if walk.outcome == "handoff":
                continue  # a branch that hands over is an escalation, judged by its hand-off
            if not walk.expected:
                unsignalled += 1  # the model names no success signal for this path
                continue
            happy += 1
            if walk.reaches_success:
                reaching += 1
            else:
                missing.append(behavior.id)
        for use in model.gated_tools():
            if not use.defined:
                continue
            gated += 1
            if use.name in refusals:
                refused += 1
            else:
                unrefused.append(f"{skill_id}:{use.name}")
    return {
        "skills": len(defs.skills),
        "behaviours": dict(sorted(kinds.items())),
        "happy_paths": happy,
        "happy_reaching_success": reaching,
        "happy_missing_success": missing,
        "happy_without_signal": unsignalled,
        "gated_tools": gated,
        "gated_with_refusal": refused,
        "gated_without_refusal": unrefused,
        "uncertainties": uncertain,
    }


__all__ = ["plan_figures"]
