"""Per-case work that does not grow with the project's skills: what a case's verification
and justification read of the definitions is kept per loaded project, for any number of
skills, and a kept answer is the one a fresh reading gives."""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import pytest

from agentflows.planning import _mantle_paths
from benchmarks.synthetic import write_project
from evalcore.agents.reference import _shared, _variants
from evalcore.agents.reference._shared import once
from evalcore.definitions import _preconditions, is_prerequisite, load_project
from evalcore.dialects.mantle import _justify
from evalcore.yamlio import load_yaml

REPO = Path(__file__).resolve().parents[1]
CASE = REPO / "generated_cases" / "mantle" / "card_replace" / "card_replace_damaged_happy_path.yml"


class _Owner:
    """A stand-in for a loaded project or skill model (weakly referable)."""


def test_values_are_kept_for_more_owners_than_a_project_has_skills() -> None:
    owners = [_Owner() for _ in range(200)]  # a skill model per skill is an owner
    built: list[int] = []
    for _ in range(2):
        for index, owner in enumerate(owners):
            once("test", owner, None, lambda i=index: built.append(i) or i)
    assert built == list(range(200))


def test_a_value_that_holds_its_owner_does_not_keep_it_forever() -> None:
    for _ in range(_shared._MAX_HELD + 5):
        owner = _Owner()
        once("test-held", owner, None, lambda o=owner: [o], holds_owner=True)
    assert len(_shared._HELD) <= _shared._MAX_HELD


@pytest.fixture(scope="module")
def projects(tmp_path_factory: pytest.TempPathFactory) -> dict[int, Any]:
    root = tmp_path_factory.mktemp("skills")
    return {n: load_project(write_project(root / f"p{n}", n, distinct=True)) for n in (8, 32)}


def test_a_skills_optional_fields_read_the_prose_once_per_project(
    projects: dict[int, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    project = projects[32]
    calls: list[str] = []
    real = _variants.prose_items

    def counted(skill: Any, model: Any) -> Any:
        calls.append(skill.id)
        return real(skill, model)

    monkeypatch.setattr(_variants, "prose_items", counted)
    skills = sorted(project.mantle.skills)
    first = {s: _variants.optional_fields(project, s) for s in skills}
    again = {s: _variants.optional_fields(project, s) for s in skills}
    assert first == again
    assert len(calls) <= len(skills)  # each skill's prose once, not once per asking skill


def _data(project_size: int) -> dict[str, Any]:
    """Bank's damaged-card happy path, on the first copy of `card_replace`."""
    text = CASE.read_text(encoding="utf-8")
    for name in ("card_replace", "check_balance", "dispute_charge", "human_handoff"):
        text = text.replace(name, f"{name}_s01")
    return load_yaml(text)


def test_judging_a_project_entry_reads_only_the_skills_that_can_write_it(
    projects: dict[int, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    # no skill's prose, steps, constraints or tools name `preferred_language` (a seed)
    data = {
        "scenario": {
            "name": "x",
            "goals": {
                "assertions": [{"memory_was_not_set": {"name": "project.preferred_language"}}]
            },
        }
    }
    read: dict[int, list[str]] = {}
    real = _justify.MantleJustifier._prose_mentions
    for size, project in projects.items():
        seen = read[size] = []

        def counted(self: Any, skill: Any, *args: Any, seen: list[str] = seen, **kw: Any) -> Any:
            seen.append(skill.id)
            return real(self, skill, *args, **kw)

        monkeypatch.setattr(_justify.MantleJustifier, "_prose_mentions", counted)
        judged = _justify.MantleJustifier(project).judge(copy.deepcopy(data))
        assert [j.kind for j in judged] == ["enforced"]  # "nothing writes" it
    assert read[8] == read[32] == []


def test_the_writers_index_judges_as_every_skill_does(
    projects: dict[int, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    project = projects[8]
    data = _data(8)
    indexed = _justify.MantleJustifier(project).judge(copy.deepcopy(data))
    monkeypatch.setattr(
        _justify.MantleJustifier, "_may_write", lambda self, name: list(self.defs.skills.values())
    )
    assert _justify.MantleJustifier(project).judge(data) == indexed


def test_a_kept_judgement_is_given_only_for_the_same_case(projects: dict[int, Any]) -> None:
    justifier = _justify.MantleJustifier(projects[8])
    data = _data(8)
    first = justifier.judge(copy.deepcopy(data))
    assert justifier.judge(copy.deepcopy(data)) == first
    goals = data["scenario"]["goals"]
    goals["assertions"] = goals["assertions"][:1]
    fewer = justifier.judge(data)
    assert fewer == _justify.MantleJustifier(projects[8]).judge(data)
    assert len(fewer) < len(first)


def test_a_seeded_entry_every_skill_writes_is_judged_without_reading_their_prose(
    projects: dict[int, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    data = {
        "scenario": {
            "name": "x",
            "setup": {"initial_slots": {"project.authenticated": True}},
            "goals": {"assertions": [{"memory_was_set": {"name": "project.authenticated"}}]},
        }
    }
    read: dict[int, list[str]] = {}
    real = _justify.MantleJustifier._prose_mentions
    for size, project in projects.items():
        seen = read[size] = []

        def counted(self: Any, skill: Any, *args: Any, seen: list[str] = seen, **kw: Any) -> Any:
            seen.append(skill.id)
            return real(self, skill, *args, **kw)

        monkeypatch.setattr(_justify.MantleJustifier, "_prose_mentions", counted)
        judged = _justify.MantleJustifier(project).judge(copy.deepcopy(data))
        assert [(j.kind, j.justification.element) for j in judged] == [  # type: ignore[union-attr]
            ("enforced", "initial_slots project.authenticated")
        ]
    assert read[8] == read[32] == []


@pytest.mark.parametrize("seed", range(20))
def test_the_strongest_writer_read_lazily_is_the_strongest_of_all(seed: int) -> None:
    import random

    rng = random.Random(seed)
    kinds = [None, "conditional", "instructed", "enforced"]
    items = [
        None if (k := rng.choice(kinds)) is None else _justify.Justification(k, f"f{i}", i, "e")
        for i in range(rng.randint(0, 8))
    ]
    assert _justify._strongest(iter(items)) == _justify.strongest(items)


def test_finding_who_utters_a_response_reads_only_the_prose_that_names_it(
    projects: dict[int, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    read: dict[int, list[str]] = {}
    found: dict[int, list[str]] = {}
    real = _justify.MantleJustifier._mentioning
    for size, project in projects.items():
        seen = read[size] = []

        def counted(self: Any, skill: Any, *args: Any, seen: list[str] = seen, **kw: Any) -> Any:
            seen.append(skill.id)
            return real(self, skill, *args, **kw)

        monkeypatch.setattr(_justify.MantleJustifier, "_mentioning", counted)
        utterers = _justify.MantleJustifier(project)._may_utter("utter_order_placed_s01")
        found[size] = [skill.id for skill in utterers]
    assert found[8] == found[32] == ["card_replace_s01"]  # its tool constraint's on_success
    assert read[8] == read[32] == []  # no other skill's prose names it: none is searched


@pytest.mark.parametrize(
    "name", ["card_replace_refused_place_replacement_order_edge_case.yml", CASE.name]
)
def test_the_gates_looked_up_by_name_judge_as_reading_every_skill_does(
    projects: dict[int, Any], monkeypatch: pytest.MonkeyPatch, name: str
) -> None:
    project = projects[8]
    text = (CASE.parent / name).read_text(encoding="utf-8")
    for skill in ("card_replace", "check_balance", "dispute_charge", "human_handoff"):
        text = text.replace(skill, f"{skill}_s01")
    data = load_yaml(text)
    indexed = _justify.MantleJustifier(project).judge(copy.deepcopy(data))

    def every(self: Any, *_: Any) -> list[tuple[Any, str, Any]]:
        skills = self.defs.skills.values()
        return [(s, tool, c) for s in skills for tool, c in s.tool_constraints.items()]

    monkeypatch.setattr(_justify.MantleJustifier, "_constraints_among", every)
    assert _justify.MantleJustifier(project).judge(data) == indexed


def test_whether_a_skill_is_run_first_reads_each_skills_text_once_per_project(
    projects: dict[int, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    defs = projects[32].mantle
    calls: list[str] = []
    real = _preconditions._named_first

    def counted(defs_: Any, skill: Any, **kw: Any) -> Any:
        calls.append(skill.id)
        return real(defs_, skill, **kw)

    monkeypatch.setattr(_preconditions, "_named_first", counted)
    skills = sorted(defs.skills)
    first = {s: is_prerequisite(defs, s) for s in skills}
    again = {s: is_prerequisite(defs, s) for s in skills}
    assert first == again
    assert len(calls) <= len(skills)  # each skill's text once, not once per asked skill
    fresh = {s: any(s in real(defs, defs.skills[o]) for o in skills if o != s) for s in skills}
    assert first == fresh


def test_a_namespaces_fields_are_the_declared_entries_it_qualifies(
    projects: dict[int, Any],
) -> None:
    defs = projects[8].mantle
    for namespace in [*defs.skills, "project", "nobody"]:
        expected = [f for n, f in defs.memory_names().items() if n.startswith(namespace + ".")]
        assert list(defs.namespace_fields(namespace)) == expected


def test_the_projects_own_skill_is_weighed_once_per_project(
    projects: dict[int, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    project = projects[32]
    weighed: list[str] = []
    real = _mantle_paths._weight

    def counted(project_: Any, skill_id: str) -> int:
        weighed.append(skill_id)
        return real(project_, skill_id)

    monkeypatch.setattr(_mantle_paths, "_weight", counted)
    picked = {_mantle_paths.project_skill(project) for _ in project.mantle.skills}
    assert picked == {_mantle_paths._project_skill(project)}
    assert len(weighed) <= 2 * len(project.mantle.skills)  # once, and once for the check


def test_the_skills_that_may_utter_a_response_are_found_from_one_index(
    projects: dict[int, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    project = projects[32]
    responses = sorted(project.mantle.all_responses())
    read: list[str] = []
    real = _justify.MantleJustifier._said_by

    def counted(self: Any, skill: Any) -> set[str]:
        read.append(skill.id)
        return real(self, skill)

    monkeypatch.setattr(_justify.MantleJustifier, "_said_by", counted)
    indexed = _justify.MantleJustifier(project)
    found = {name: [s.id for s in indexed._may_utter(name)] for name in responses}
    assert len(read) <= len(project.mantle.skills)  # each skill once, not once per response
    assert any(found.values())
    monkeypatch.setattr(
        _justify.MantleJustifier, "_may_name", lambda self, name: list(self.defs.skills.values())
    )
    every = _justify.MantleJustifier(project)
    assert found == {name: [s.id for s in every._may_utter(name)] for name in responses}
