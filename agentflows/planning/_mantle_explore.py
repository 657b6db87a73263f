"""The paths the Mantle planner explores, each played by the reference agent (or a mutant).

    found = explore(project)
    [p.skill for p in found.paths]          # one per distinct (skill, setup) walked
    found.play(found.paths[0], mutant)      # the same scripted run, played by the mutant

Planning a skill walks the reference agent with a scripted user for every behaviour it
weighs: each routing value, refusal, failing tool, negative check, cue, threshold side,
detour and sign-in prelude, including the candidates it tried and did not keep. Each walk
is a conversation a correct agent has with the project's initial values. `casegen mutate`
plays every one of them again with a mutant to tell whether the mutant can leave a mark
the reference agent does not on any path the planner finds (`agentflows.mutate._equivalence`).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from evalcore.agents.reference import Mutant
from evalcore.definitions import Project
from evalcore.errors import UserError

from ._mantle import plan_mantle
from ._mantle_reference_walk import Played, reference_play
from ._mantle_walk import Setup, exploring


@dataclass(frozen=True)
class ExploredPath:
    skill: str
    setup: Setup
    played: Played
    """The reference agent's run of it."""


@dataclass
class Exploration:
    project: Project
    paths: list[ExploredPath] = field(default_factory=list)
    unexplored: dict[str, str] = field(default_factory=dict)
    """Skill -> why planning it failed (its paths are unknown, so nothing is proven there)."""

    def play(self, path: ExploredPath, mutant: Mutant) -> Played:
        """`path`'s scripted run played by `mutant`."""
        return reference_play(self.project, path.skill, path.setup, mutant)


def explore(project: Project) -> Exploration:
    """Plan every skill of the project and play each distinct walk the planner made."""
    defs = project.mantle
    found = Exploration(project)
    if defs is None:
        return found
    with exploring() as seen:
        for skill_id in sorted(defs.skills):
            try:
                plan_mantle(project, skill_id, None)
            except UserError as error:
                found.unexplored[skill_id] = error.message
    kept: set[str] = set()
    for skill_id, setup in seen:
        key = repr((skill_id, setup))  # the setup's values are plain data: repr names them
        if key in kept:
            continue
        kept.add(key)
        found.paths.append(ExploredPath(skill_id, setup, reference_play(project, skill_id, setup)))
    return found


__all__ = ["Exploration", "ExploredPath", "explore"]
