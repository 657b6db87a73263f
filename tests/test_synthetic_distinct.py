"""The benchmarks' many-skill project with distinct words: every skill plans, and an opening
line of one copy routes to that copy, not to the first of its look-alikes; routing scores
only the skills a message shares words with, and routes as scoring every skill did."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from agentflows.planning import plan_source
from benchmarks.synthetic import write_project
from evalcore.agents.reference._mantle_text import routing_description, stems
from evalcore.agents.reference._mantle_words import SkillWords, routed_skill, routing_ties
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


def _routed_by_every_skill(defs: Any, words: SkillWords, text: str, closed: set[str]) -> Any:
    """Routing as it was worked out before: every skill scored for every message."""
    said = set(stems(text))
    scores = words.scores(text)
    for skill_id in closed:
        scores.pop(skill_id, None)
    for skill_id in scores:
        description = routing_description(defs.skills[skill_id].description or "")
        plain = " ".join(re.findall(r"[a-z0-9']+", text.lower()))
        phrases = re.findall(r'["“]([^"“”]{2,80})["”]', description)
        said_words = [" ".join(re.findall(r"[a-z0-9']+", q.lower())) for q in phrases]
        if any(p and f" {p} " in f" {plain} " for p in said_words):
            scores[skill_id] += 1.0
        name = set(stems(defs.skills[skill_id].name or ""))
        if name and name <= said:
            scores[skill_id] += 1.0 + 0.1 * len(name)
    best = max(sorted(scores), key=lambda k: scores[k], default=None)
    routed = best if best is not None and scores[best] >= 1.0 else None
    tied = sorted(k for k, v in scores.items() if routed and v == scores[routed] and k != routed)
    return routed, ([routed, *tied] if tied else [])


@settings(max_examples=300, deadline=None)
@given(data=st.data())
def test_routing_scores_only_the_skills_a_message_shares_words_with(
    data: st.DataObject, tmp_path_factory: pytest.TempPathFactory
) -> None:
    """The same skill and the same ties as scoring every skill, on messages made of the
    skills' own words and names (whole or in part) and words no skill has."""
    defs = _distinct_defs(tmp_path_factory)
    words = SkillWords([s for s in defs.skills.values() if not s.disabled])
    pool = sorted({w for vocab in words.vocab.values() for w in vocab})
    names = [s.name or "" for s in defs.skills.values()]
    pieces = st.one_of(st.sampled_from(pool), st.sampled_from(names), st.just("zzyzx"))
    text = " ".join(data.draw(st.lists(pieces, max_size=8)))
    closed = set(data.draw(st.sets(st.sampled_from(sorted(defs.skills)), max_size=3)))
    expected = _routed_by_every_skill(defs, words, text, closed)
    got = routed_skill(defs, words, text, closed), routing_ties(defs, words, text, closed)
    assert got == expected


_DEFS: dict[str, Any] = {}


def _distinct_defs(factory: pytest.TempPathFactory) -> Any:
    if "defs" not in _DEFS:
        project = load_project(write_project(factory.mktemp("routing") / "p", 12, distinct=True))
        _DEFS["defs"], _DEFS["project"] = project.mantle, project
    return _DEFS["defs"]


@settings(max_examples=200, deadline=None)
@given(data=st.data())
def test_the_mutants_on_a_path_are_found_by_index_as_by_trying_each(
    data: st.DataObject, tmp_path_factory: pytest.TempPathFactory
) -> None:
    """`relevant` on a project's kept list (indexed) gives what trying every mutant gives."""
    from agentflows.generate.verify_paths import CasePath, relevant
    from evalcore.agents.reference._mutants import mutants

    defs = _distinct_defs(tmp_path_factory)
    project = _DEFS["project"]
    every = _DEFS.setdefault("mutants", mutants(project))
    skills = data.draw(st.sets(st.sampled_from(sorted(defs.skills)), min_size=1, max_size=3))
    # names the path's skills' mutants hold (so most paths reach some), and any other
    own = sorted({m.target for m in every if m.target and m.skill in skills})
    names = sorted({m.target for m in every if m.target})
    some = st.sets(st.one_of(st.sampled_from(own or names), st.sampled_from(names)), max_size=6)
    path = CasePath(
        skills=set(skills),
        tools=data.draw(some),
        memory=data.draw(some),
        named=data.draw(some),
        interrupted=data.draw(st.booleans()),
    )
    assert relevant(every, path, project) == relevant(iter(every), path, project)
