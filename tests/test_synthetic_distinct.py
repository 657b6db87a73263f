"""The benchmarks' many-skill project with distinct words: every skill plans, and an opening
line of one copy routes to that copy, not to the first of its look-alikes."""

from __future__ import annotations

from pathlib import Path

from agentflows.planning import plan_source
from benchmarks.synthetic import write_project
from evalcore.agents.demo._mantle_words import SkillWords, routed_skill
from evalcore.definitions import load_project


def test_distinct_copies_plan_and_route_to_themselves(tmp_path: Path) -> None:
    project = load_project(write_project(tmp_path / "p", 8, distinct=True))
    assert project.mantle is not None
    skills = project.mantle.skills
    assert len(skills) == 8
    # A tool released by a value remembered for another must not be settled twice (the
    # planner raised ValueError on card_replace's prose in its second wording).
    planned = {s: plan_source(project, "mantle", s, None).behaviors for s in skills}
    assert all(planned.values())
    words = SkillWords(list(skills.values()))
    for skill_id, skill in skills.items():
        assert routed_skill(project.mantle, words, f"{skill.name}. {skill.description}") == (
            skill_id
        )
    names = {skill.name for skill in skills.values()}
    assert len(names) == 8  # each copy named in its own words
