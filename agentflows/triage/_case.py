"""The case a run played and the project it belongs to, as far as they can be found.

Triage reads the case file for what the run record does not carry: the checks as written,
the seeded slots, the simulation context (as the dialect's runner reads them,
`Dialect.run_cases`), the sources the case expects (`Dialect.expected_sources`), and
whether the case still lints clean against the project's real ids. Everything is optional:
a run whose case moved or whose project is not on disk is still triaged, from the record
alone.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Any

from evalcore.definitions import Project, find_project, load_project
from evalcore.dialects import dialect_of, get_dialect
from evalcore.documents import load_document
from evalcore.errors import UserError
from evalcore.findings import Finding
from evalcore.lexicon.en.run_findings import SKILL_CHECKED
from evalcore.validation import ProjectCache, validate_file

from ._records import RunRecord

_CASE_SUFFIXES = (".yml", ".yaml", ".json")
_SKIP = {"results", "node_modules", ".git", ".casegen", ".venv"}


@dataclass
class CaseContext:
    path: Path | None = None
    dialect: str | None = None
    document: Mapping[str, Any] = field(default_factory=dict)
    """The case file as parsed (empty where it is not a mapping)."""
    project: Project | None = None
    errors: list[Finding] = field(default_factory=list)
    """Schema and reference-lint errors of the case against the project."""

    @property
    def display(self) -> str | None:
        """The case path as a person would type it (relative to the working folder)."""
        if self.path is None:
            return None
        try:
            return str(self.path.resolve().relative_to(Path.cwd().resolve()))
        except ValueError:
            return str(self.path)

    @cached_property
    def run(self) -> Mapping[str, Any]:
        """The case as the dialect's runner plays it (`RunCase` fields: setup, simulate,
        checks); empty where the file does not read as one case."""
        if self.dialect is None or not self.document:
            return {}
        try:
            cases = get_dialect(self.dialect).run_cases(self.path or Path(), dict(self.document))
        except Exception:  # a case that does not validate: triage goes on from the record
            return {}
        return cases[0] if len(cases) == 1 else {}

    @property
    def assertions(self) -> list[Any]:
        """The checks as a list of assertions, where the dialect writes them so."""
        items = self.run.get("checks")
        return list(items) if isinstance(items, list) else []

    @property
    def initial_slots(self) -> dict[str, Any]:
        """The seeded slots with bare project keys written `project.<key>`."""
        setup = self.run.get("setup")
        slots = setup.get("initial_slots") if isinstance(setup, Mapping) else None
        if not isinstance(slots, Mapping):
            return {}
        return {(k if "." in str(k) else f"project.{k}"): v for k, v in slots.items()}

    @property
    def simulation_context(self) -> str:
        simulate = self.run.get("simulate")
        value = simulate.get("context") if isinstance(simulate, Mapping) else None
        return value if isinstance(value, str) else ""

    @property
    def skill_ids(self) -> set[str]:
        mantle = self.project.mantle if self.project is not None else None
        return set(mantle.skills) if mantle is not None else set()

    def expected_skills(self, record: RunRecord) -> list[str]:
        """Skills (playbooks) the case expects, in the order its checks first name them
        (`Dialect.expected_sources`). Without the case file, or where its checks name none,
        skill events named in the assertion details; last, the skill the case's file name
        starts with (`<skill>_<case>.yml`, the Mantle naming convention).
        """
        found: list[str] = []
        if self.dialect is not None and self.document:
            found = get_dialect(self.dialect).expected_sources(dict(self.document), self.project)
        known = self.skill_ids
        if not found:
            for check in record.assertions:
                match = SKILL_CHECKED.search(check.detail)
                if match:
                    found.append(match.group(1))
        if not found and known:
            prefixes = [s for s in known if record.slug.startswith(s)]
            found += sorted(prefixes, key=len, reverse=True)[:1]
        return list(dict.fromkeys(found))

    def definition_of(self, skill_id: str) -> str:
        """The file that defines a skill (Mantle) or playbook (Anychat), for fixes."""
        anychat = self.project.anychat if self.project is not None else None
        if anychat is not None and skill_id in anychat.playbooks:
            source = anychat.playbooks[skill_id].source
            return source.file if source is not None else f"playbooks/{skill_id}.yml"
        return f"skills/{skill_id}/skill.md"


class CaseLoader:
    """Finds and reads cases and projects once per triage, however many runs share them."""

    def __init__(self, results_dir: Path, project: Path | None = None) -> None:
        self.results_dir = results_dir.resolve()
        self.explicit = load_project(project) if project is not None else None
        self._projects: dict[Path, Project] = {}
        self._cases: dict[str, CaseContext] = {}
        self._manifests = ProjectCache(None)

    def for_run(self, record: RunRecord) -> CaseContext:
        key = f"{record.case_path}|{record.slug}"
        if key not in self._cases:
            self._cases[key] = self._load(record)
        return self._cases[key]

    def _load(self, record: RunRecord) -> CaseContext:
        project = self.explicit or self._project_at(self.results_dir)
        path = self._locate(record, project)
        if path is None:
            return CaseContext(project=project)
        doc = load_document(path)
        dialect = dialect_of(doc.data, path)
        if self.explicit is None:
            project = self._project_at(path.parent) or self._from_manifest(path, dialect) or project
        context = CaseContext(path=path, dialect=dialect.name if dialect else None, project=project)
        context.document = doc.data if isinstance(doc.data, Mapping) else {}
        if dialect is not None:
            projects = ProjectCache(project.root if project is not None else None)
            report = validate_file(path, projects=projects, explicit=True)
            context.errors = report.errors if report is not None else []
        return context

    def _from_manifest(self, path: Path, dialect: Any) -> Project | None:
        """The project a generated case came from (`generated_cases/manifest.json`)."""
        if dialect is None:
            return None
        try:
            return self._manifests.for_file(path, dialect)
        except UserError:
            return None

    def _project_at(self, folder: Path) -> Project | None:
        root = find_project(folder)
        if root is None:
            return None
        root = root.resolve()
        if root not in self._projects:
            try:
                self._projects[root] = load_project(root)
            except UserError:
                return None
        return self._projects[root]

    def _locate(self, record: RunRecord, project: Project | None) -> Path | None:
        """The recorded case path (absolute, or relative to the working folder or any
        folder above the run file), else a case file named `<slug>.*` in the project."""
        recorded = record.case_path
        if recorded:
            candidate = Path(recorded)
            bases = [Path.cwd(), *record.file.resolve().parents]
            options = [candidate] if candidate.is_absolute() else [b / candidate for b in bases]
            for option in options:
                if option.is_file():
                    return option
        if project is None:
            return None
        for suffix in _CASE_SUFFIXES:
            for hit in sorted(project.root.rglob(f"{record.slug}{suffix}")):
                parts = hit.relative_to(project.root).parts[:-1]
                if not any(p in _SKIP or p.startswith(".") for p in parts):
                    return hit
        return None


__all__ = ["CaseContext", "CaseLoader"]
