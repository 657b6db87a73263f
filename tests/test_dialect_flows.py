"""The flows ask a dialect for its parts: a dialect they have never heard of (registered
here for one test) gets its own targets, planner, drafter, definition text and ids used; a
fourth dialect that brings its own kind of project is read by its own reader once it is
registered; and every built-in dialect names parts that load."""

from __future__ import annotations

import asyncio
from pathlib import Path
from types import ModuleType, SimpleNamespace
from typing import Any

import pytest
from pydantic import BaseModel

import evalcore.definitions.kinds as kinds
import evalcore.dialects as dialects
from agentflows import planning
from agentflows.drafting.llm import definition_ids, definition_text, dump_case
from agentflows.drafting.llm._context import MAX_DEFINITION_CHARS
from agentflows.drafting.offline import OfflineEngine
from evalcore.definitions import (
    Project,
    ProjectReader,
    ReadContext,
    find_project,
    load_project,
    project_kind_of,
)
from evalcore.dialects import Dialect, load_entry
from evalcore.errors import UserError

BANK = Path(__file__).resolve().parents[1] / "examples" / "bank"


def _plan(project: Project, source: str, direction: str | None) -> Any:
    return ("plan", source, direction)


def _asserted(project: Project, source: str, data: dict[str, Any], covers: list[str]) -> list:
    return [c for c in covers if c in data.get("checks", [])]


def _not_a_goal(project: Project, source: str) -> str | None:
    return "it runs on its own" if source == "reminder" else None


def _draft(ctx: Any) -> tuple[dict[str, Any], str]:
    return {"note": ctx.behavior}, "a person reads the note first"


class NotesDialect(Dialect):
    """A made-up format whose parts live in this module."""

    name = "notes"
    file_format = "json"
    suffixes = (".json",)
    project_kind = "mantle"
    source_noun = "note topic"
    planner = f"{__name__}:_plan"
    asserted_elements = f"{__name__}:_asserted"
    not_a_goal = f"{__name__}:_not_a_goal"
    offline_drafter = f"{__name__}:_draft"

    def source_ids(self, project: Project) -> set[str]:
        return {"reminder", "greeting"}

    def definition_text(self, project: Project, source: str) -> str:
        return f"{source}: " + "x" * MAX_DEFINITION_CHARS

    def definition_ids(self, project: Project, source: str) -> dict[str, Any]:
        return {"topic": source}

    def case_data(self, value: BaseModel) -> dict[str, Any]:
        return {"dumped": value.model_dump()}


@pytest.fixture
def notes(monkeypatch: pytest.MonkeyPatch) -> NotesDialect:
    dialects.all_dialects()  # the built-in three first, so the registry is complete
    dialect = NotesDialect()
    monkeypatch.setitem(dialects._REGISTRY, dialect.name, dialect)
    return dialect


def test_planning_takes_targets_planner_and_goals_from_the_dialect(notes) -> None:
    project = load_project(BANK)
    assert planning.source_ids(project, "notes") == ["greeting", "reminder"]
    assert planning.resolve_targets(project, "notes", ["all"]) == ["greeting"]
    with pytest.raises(UserError, match="no case's goal: it runs on its own"):
        planning.resolve_targets(project, "notes", ["reminder"])
    with pytest.raises(UserError, match="not a note topic of"):
        planning.resolve_targets(project, "notes", ["farewell"])
    assert planning.plan_source(project, "notes", "greeting", "be brief") == (
        "plan",
        "greeting",
        "be brief",
    )
    data = {"checks": ["a"]}
    assert planning.asserted_elements(project, "notes", "greeting", data, ["a", "b"]) == {"a"}


def test_a_model_reads_the_definition_and_ids_the_dialect_gives(notes) -> None:
    project = load_project(BANK)
    text = definition_text(project, "notes", "greeting")
    assert text.startswith("greeting: xxx")
    assert text.endswith("[… definition cut here for length …]")
    assert definition_ids(project, "notes", "greeting") == {"topic": "greeting"}

    class Case(BaseModel):
        note: str | None = None

    assert dump_case("notes", Case(note=None)) == {"dumped": {"note": None}}


def test_the_offline_engine_drafts_with_the_dialect_drafter(notes) -> None:
    ctx = SimpleNamespace(dialect="notes", behavior="greet")
    result = asyncio.run(OfflineEngine().draft(ctx))  # type: ignore[arg-type]
    assert result.data == {"note": "greet"}
    assert result.needs_review == "a person reads the note first"


def test_every_built_in_dialect_names_parts_that_load() -> None:
    for dialect in dialects.all_dialects():
        for part in ("planner", "asserted_elements", "offline_drafter", "not_a_goal"):
            entry = getattr(dialect, part)
            if part != "not_a_goal":
                assert entry, f"{dialect.name} names no {part}"
            if entry:
                assert callable(load_entry(entry)), f"{dialect.name}.{part}: {entry}"
        if dialect.planned_drafting:
            module = load_entry(dialect.planned_drafting)
            assert isinstance(module, ModuleType)
            assert all(hasattr(module, n) for n in ("WORDS", "planned_case", "merge_words"))


def _read_memos(ctx: ReadContext) -> dict[str, str]:
    """The memo kind's reader: `topic: text`, one memo a line of `memos.txt`."""
    text = ctx.read_text(ctx.root / "memos.txt") or ""
    pairs = (line.partition(":") for line in text.splitlines())
    return {topic.strip(): memo.strip() for topic, sep, memo in pairs if sep}


class MemosDialect(Dialect):
    """A fourth dialect, with its own kind of project: everything it brings is in this
    module (its folder), and `register` is its one registration."""

    name = "memos"
    file_format = "json"
    suffixes = (".json",)
    project_kind = "memos"
    project_reader = ProjectReader(
        kind="memos",
        recognises=lambda folder: (folder / "memos.txt").is_file(),
        reader=f"{__name__}:_read_memos",
        shape="a memo project has memos.txt",
    )
    source_noun = "memo"

    def source_ids(self, project: Project) -> set[str]:
        return set(project.plugin_definitions[self.project_kind])


@pytest.fixture
def registries(monkeypatch: pytest.MonkeyPatch) -> None:
    """The registries as they are, restored after the test registers a dialect."""
    dialects.all_dialects()
    monkeypatch.setattr(dialects, "_REGISTRY", dict(dialects._REGISTRY))
    monkeypatch.setattr(dialects, "_BY_SUFFIX", {})
    monkeypatch.setattr(kinds, "_KINDS", dict(kinds._KINDS))


def test_a_fourth_dialect_brings_its_project_reader_by_one_registration(
    registries, tmp_path: Path
) -> None:
    (tmp_path / "memos.txt").write_text("greeting: say hello\nreminder: pay rent\n")
    (tmp_path / "notes").mkdir()
    with pytest.raises(UserError, match="not a project folder"):
        load_project(tmp_path)

    dialects.register(MemosDialect)

    project = load_project(tmp_path)
    assert project.kind == "memos" == project_kind_of(tmp_path)
    assert project.plugin_definitions == {
        "memos": {"greeting": "say hello", "reminder": "pay rent"}
    }
    assert project.mantle is project.anychat is project.agent_skills is None
    assert [s.path for s in project.sources] == ["memos.txt"]
    assert find_project(tmp_path / "notes") == tmp_path
    assert dialects.dialect_for_kind("memos") is dialects.get_dialect("memos")
    assert planning.source_ids(project, "memos") == ["greeting", "reminder"]
    # the built-in kinds are still read, and tried first
    assert load_project(BANK).kind == "mantle"
    with pytest.raises(UserError) as raised:
        load_project(tmp_path / "notes")
    assert raised.value.hint is not None and raised.value.hint.endswith(
        "; a memo project has memos.txt"
    )
