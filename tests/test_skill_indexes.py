"""Lookups across every skill that a case's checks make, answered from an index built once
per loaded project: the skills that can run a tool, a namespace's memory entries, a tool
file's code facts. Each answers exactly as the scan of every skill it replaces, and a later
ask reads no skill again (a case's cost stays flat as the project grows)."""

from __future__ import annotations

from typing import Any

import pytest

from benchmarks.synthetic import write_project
from evalcore.definitions import load_project
from evalcore.definitions.skill_model import _code


@pytest.fixture(scope="module")
def defs(tmp_path_factory: pytest.TempPathFactory) -> Any:
    root = tmp_path_factory.mktemp("indexes")
    project = load_project(write_project(root / "p12", 12, distinct=True))
    assert project.mantle is not None
    return project.mantle


def test_the_skills_that_can_run_a_tool_are_those_a_scan_of_every_skill_finds(defs: Any) -> None:
    names = {name for skill in defs.skills for name in defs.tools_for(skill)}
    assert any(  # a shared tool more than one skill imports
        len([s for s in defs.skills if n in defs.tools_for(s)]) > 1 for n in names
    )
    for name in [*sorted(names), "no_such_tool"]:
        scanned = [s for s in defs.skills if name in defs.tools_for(s)]
        assert list(defs.skills_calling(name)) == scanned


def test_a_later_ask_for_a_tools_skills_reads_no_skills_tools(
    defs: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    name = next(iter(defs.tools_for(next(iter(defs.skills)))))
    defs.skills_calling(name)
    monkeypatch.setattr(type(defs), "tools_for", lambda *_: pytest.fail("scanned a skill"))
    assert defs.skills_calling(name)


def test_a_namespaces_entries_are_the_declared_ones_in_the_projects_order(defs: Any) -> None:
    every = list(defs.memory_names().values())
    spaces = ["project", *defs.skills, "nobody"]
    for space in spaces:
        assert defs.memory_in(space) == [f for f in every if f.namespace == space]
    for skill in defs.skills:
        asked = (skill, "project")
        assert defs.memory_in(*asked) == [f for f in every if f.namespace in asked]


def test_more_tool_files_than_a_project_of_many_skills_has_are_parsed_once(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    parsed: list[str] = []
    real = _code.parsed_module

    def counted(text: str) -> Any:
        parsed.append(text)
        return real(text)

    monkeypatch.setattr(_code, "parsed_module", counted)
    _code._file_facts.cache_clear()
    texts = [f"def tool_{n}(x):\n    return {{'n': {n}}}\n" for n in range(200)]
    for _ in range(2):  # the generator's load, then the reference agent's own load
        for text in texts:
            assert f"tool_{texts.index(text)}" in _code._file_facts(text)
    assert len(parsed) == len(texts)
    _code._file_facts.cache_clear()
