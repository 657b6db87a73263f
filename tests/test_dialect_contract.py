"""The engine asks a dialect what it needs and never names one: a dialect it has never heard
of (registered here for one test) gets its own answers used, by the manifest, the runner's
results folder, review and dedupe."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

import evalcore.dialects as dialects
from agentflows.review._views import ReviewEnv, case_views
from agentflows.review._vocab import vocabulary
from agentflows.review.rules import RULES
from agentflows.triage._case import CaseContext
from evalcore.dedupe import fingerprint
from evalcore.definitions import load_project
from evalcore.dialects import EVENT_ASSERTIONS, CaseProse, Dialect
from evalcore.manifest import relevant_sources
from evalcore.runner import RunCase
from evalcore.runner._discover import default_results_dir

BANK = Path(__file__).resolve().parents[1] / "examples" / "bank"


class NotesDialect(Dialect):
    """A made-up format: a case is `{"note": ..., "goal": ...}`, kept in a Mantle project."""

    name = "notes"
    file_format = "json"
    suffixes = (".json",)
    project_kind = "mantle"
    results_folder = "runs/notes"

    def depends_on(self, path: str, source: str) -> bool:
        return path == "agent.yml"

    def case_prose(self, data: dict[str, Any]) -> list[CaseProse]:
        return [
            CaseProse(
                base="",
                data=data,
                title=str(data.get("note", "")),
                title_path="/note",
                type="happy_path",
                criteria=(("/goal", str(data.get("goal", ""))),),
            )
        ]

    def fingerprint_facts(self, data: dict[str, Any]) -> tuple[set[str], str]:
        return {f"goal:{data.get('goal')}"}, str(data.get("note", ""))

    def expected_sources(self, data: dict[str, Any], project: Any) -> list[str]:
        return [str(data.get("skill"))]

    def run_cases(self, path: Path, data: dict[str, Any]) -> list[dict[str, Any]]:
        return [
            {
                "slug": path.stem,
                "name": str(data.get("note")),
                "dialect": self.name,
                "setup": {"initial_slots": data.get("seed") or {}},
                "simulate": {"context": str(data.get("note"))},
                "checks": [{"skill_completed": {"skill_id": data.get("skill")}}],
            }
        ]


@pytest.fixture
def notes(monkeypatch: pytest.MonkeyPatch) -> NotesDialect:
    dialects.all_dialects()  # the built-in three first, so the registry is complete
    dialect = NotesDialect()
    monkeypatch.setitem(dialects._REGISTRY, dialect.name, dialect)
    return dialect


def test_the_manifest_hashes_the_files_the_dialect_says_a_case_depends_on(notes) -> None:
    assert list(relevant_sources(load_project(BANK), notes.name, "card_replace")) == ["agent.yml"]


def test_run_results_go_where_the_dialect_keeps_them(notes, tmp_path: Path) -> None:
    case = RunCase(
        slug="a",
        name="a",
        dialect=notes.name,
        path=str(BANK / "eval" / "scenarios" / "a.json"),
    )
    assert default_results_dir([case], cwd=tmp_path) == BANK.resolve() / "runs" / "notes"
    elsewhere = RunCase(slug="b", name="b", dialect=notes.name, path=str(tmp_path / "b.json"))
    assert default_results_dir([elsewhere], cwd=tmp_path) == tmp_path / "results"


def test_review_reads_the_cases_the_dialect_says_a_document_holds(notes) -> None:
    data = {"note": "replace a card", "goal": "the card is replaced"}
    (view,) = case_views(data, notes.name, None)
    assert (view.title, view.type) == ("replace a card", "happy_path")
    assert [(p.path, p.text) for p in view.criteria] == [("/goal", "the card is replaced")]
    assert view.fingerprint == fingerprint(data, notes)
    assert "goal:the card is replaced" in view.fingerprint.facts


def _review(data: dict[str, Any], dialect: str) -> set[str]:
    env = ReviewEnv(project=None, vocab=vocabulary(None))
    return {
        f.code
        for view in case_views(data, dialect, None)
        for r in RULES.values()
        for f in r.check(view, env)
    }


def test_review_gives_every_case_the_rules_on_what_every_dialect_answers(notes) -> None:
    """Its criteria are reviewed like any other (a vague one is flagged); a rule on what
    checks show says nothing, since the dialect names no checks vocabulary."""
    codes = _review({"note": "replace a card", "goal": "the agent helps appropriately"}, "notes")
    assert codes == {"vague-criterion"}


def test_a_rule_for_a_checks_vocabulary_reads_every_dialect_that_writes_its_checks_so(
    notes, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The dialect says its checks are event assertions: the happy path with none gets the
    rule written for that vocabulary, whatever the dialect is called."""
    monkeypatch.setattr(NotesDialect, "checks_vocabulary", EVENT_ASSERTIONS)
    codes = _review({"note": "replace a card", "goal": "the card is replaced"}, "notes")
    assert codes == {"no-decisive-assertion"}


def test_triage_reads_the_case_as_the_dialect_answers(notes) -> None:
    """The sources a failed run was expected to go through, its checks, seeded slots and
    simulated user's context come from the dialect, not from a format triage knows."""
    data = {"note": "replace a card", "skill": "card_replace", "seed": {"card_last4": "4417"}}
    context = CaseContext(dialect=notes.name, document=data, project=load_project(BANK))
    record = SimpleNamespace(assertions=[], slug="a_case_named_otherwise")
    assert context.expected_skills(record) == ["card_replace"]  # type: ignore[arg-type]
    assert context.initial_slots == {"project.card_last4": "4417"}
    assert context.simulation_context == "replace a card"
    assert context.assertions == [{"skill_completed": {"skill_id": "card_replace"}}]
