"""The suite as the scorer reads it: one `ScoredCase` per Mantle scenario file.

Scoring reads files as a Rasa engineer would: what the scenario asserts, its type, its
simulation context. A file that does not parse still counts (it is not valid); a file of
another dialect under a searched folder is skipped and named in the notes.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from evalcore.definitions import Project
from evalcore.dialects import EVENT_ASSERTIONS, detect_dialect
from evalcore.documents import Document, load_document
from evalcore.validation import iter_candidate_files

#: Case types that are not about reaching a skill's goal (figure 3 leaves them out).
NOT_GOAL_DIRECTED = frozenset({"out_of_scope", "adversarial"})


@dataclass
class ScoredCase:
    """One scenario file, with the parts the figures read."""

    path: Path
    doc: Document
    scenario: dict[str, Any] = field(default_factory=dict)

    @property
    def parsed(self) -> bool:
        return self.doc.parsed and isinstance(self.doc.data, dict)

    @property
    def type(self) -> str | None:
        value = self.scenario.get("type")
        return value if isinstance(value, str) else None

    @property
    def context(self) -> str:
        value = self.scenario.get("simulation_context")
        return value if isinstance(value, str) else ""

    @property
    def assertions(self) -> list[Any]:
        goals = self.scenario.get("goals")
        items = goals.get("assertions") if isinstance(goals, dict) else None
        return list(items) if isinstance(items, list) else []

    @property
    def criteria(self) -> list[str]:
        """`goals.criteria`: what a judge reads, the strings only."""
        goals = self.scenario.get("goals")
        items = goals.get("criteria") if isinstance(goals, dict) else None
        return [c for c in items if isinstance(c, str)] if isinstance(items, list) else []

    @property
    def seeded(self) -> dict[str, Any]:
        """`setup.initial_slots`: what the session knows before the user speaks."""
        setup = self.scenario.get("setup")
        slots = setup.get("initial_slots") if isinstance(setup, dict) else None
        return dict(slots) if isinstance(slots, dict) else {}

    def checks(self) -> Iterator[tuple[str, Any]]:
        """Every single-key check, with `sequencing` steps and `tools_within_one_turn`
        calls flattened in: each asserts that its event happened."""
        yield from _flatten(self.assertions)

    def skills(self) -> list[str]:
        """Skill ids the case activates (`skill_activated`), in order."""
        out = [
            body.get("skill_id")
            for key, body in self.checks()
            if key == "skill_activated" and isinstance(body, dict)
        ]
        return list(dict.fromkeys(s for s in out if isinstance(s, str)))

    def primary_skill(self, project: Project | None) -> str | None:
        """The skill the case is about: its first `skill_activated`, else its folder name
        when that is a skill of the project (generated suites sit in `<skill_id>/`)."""
        skills = self.skills()
        if skills:
            return skills[0]
        if project is not None and project.mantle is not None:
            folder = self.path.parent.name
            if folder in project.mantle.skills:
                return folder
        return None


def _flatten(items: Sequence[Any]) -> Iterator[tuple[str, Any]]:
    for item in items:
        if not isinstance(item, dict) or len(item) != 1:
            continue
        ((key, body),) = item.items()
        key = str(key)
        if key == "sequencing" and isinstance(body, list):
            for step in body:
                if isinstance(step, dict) and len(step) == 1:
                    ((inner, value),) = step.items()
                    yield str(inner), value
            continue
        if key == "tools_within_one_turn" and isinstance(body, dict):
            calls = body.get("calls")
            for call in calls if isinstance(calls, list) else []:
                if isinstance(call, dict) and "tool_executed" in call:
                    yield "tool_executed", call["tool_executed"]
            continue
        yield key, body


def memory_entries(body: Any) -> list[tuple[str, bool, Any]]:
    """`memory_was_(not_)set` entries as `(name, has_value, value)`; a plain string (the
    `sequencing` form) is a name without a value."""
    if isinstance(body, str):
        return [(body, False, None)]
    entries = body if isinstance(body, list) else [body]
    out = []
    for entry in entries:
        if isinstance(entry, dict) and isinstance(entry.get("name"), str):
            out.append((entry["name"], "value" in entry, entry.get("value")))
    return out


def load_suite(paths: Sequence[Path]) -> tuple[list[ScoredCase], list[str]]:
    """The Mantle scenario files named or found under `paths`, and notes on skipped files."""
    cases: list[ScoredCase] = []
    notes: list[str] = []
    for file, explicit in iter_candidate_files(paths):
        doc = load_document(file)
        if not doc.parsed:
            if explicit or file.suffix.lower() in (".yml", ".yaml"):
                cases.append(ScoredCase(file, doc))
            continue
        dialect = detect_dialect(doc.data, file)
        # the figures read scenarios' event assertions (`goals.assertions`)
        if dialect is None or dialect.checks_vocabulary != EVENT_ASSERTIONS:
            if explicit or file.suffix.lower() in (".yml", ".yaml"):
                shown = dialect.name if dialect else "no known dialect"
                notes.append(f"{file}: skipped ({shown}, not a Mantle scenario)")
            continue
        data = doc.data if isinstance(doc.data, dict) else {}
        scenario = data.get("scenario") if isinstance(data.get("scenario"), dict) else {}
        cases.append(ScoredCase(file, doc, scenario))
    return cases, notes


__all__ = ["NOT_GOAL_DIRECTED", "ScoredCase", "load_suite", "memory_entries"]
