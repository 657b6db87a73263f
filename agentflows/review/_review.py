"""`casegen review`: quality comments on cases, beyond validity.

    report = await review_paths([Path("generated_cases/mantle")], critic=None)
    report.failed        # any error-severity comment
    report.to_json()     # {"files": [...], "summary": {...}, "engine": "rules"}

Deterministic rules always run; a configured model adds `critique` comments on top (never
instead). Comments are `Finding`s, so they print and serialise like validation findings.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from evalcore.definitions import Project
from evalcore.dialects import dialect_of
from evalcore.documents import load_document
from evalcore.findings import Finding, sort_findings
from evalcore.llm import Usage
from evalcore.validation import ProjectCache, iter_candidate_files, validate_document

from ._critique import critique_file
from ._critique_revise import revise_concrete
from ._views import CaseView, LoadedFile, Peer, ReviewEnv, case_views
from ._vocab import Vocabulary, vocabulary
from .rules import RULES

#: Every comment code review emits, with its default severity and meaning.
REVIEW_CODES: dict[str, tuple[str, str]] = {
    rule.code: (rule.severity, rule.summary) for rule in RULES.values()
} | {
    "critique": ("warning", "A model reviewer's comment (only with a model configured)."),
}


@dataclass
class FileReview:
    """The review of one file: its comments (rules first, then the model's)."""

    path: str
    dialect: str | None
    comments: list[Finding] = field(default_factory=list)
    valid: bool = True
    """Whether the file passes validation (review still comments on invalid files)."""
    notes: list[str] = field(default_factory=list)
    """What the reviewer should know that is not about the case (a failed critique call)."""
    revisions: list[dict[str, Any]] = field(default_factory=list)
    """Revisions the model made from the critique's concrete fixes (`--revise`), proposed."""

    @property
    def errors(self) -> list[Finding]:
        return [c for c in self.comments if c.severity == "error"]

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "path": self.path,
            "dialect": self.dialect,
            "valid": self.valid,
            "comments": [c.to_json() for c in self.comments],
        }
        if self.notes:
            out["notes"] = self.notes
        if self.revisions:
            out["revisions"] = self.revisions
        return out


@dataclass
class CritiqueTally:
    """How the model critique went over the whole review."""

    model: str
    ran: int = 0
    failed: int = 0

    def to_json(self) -> dict[str, Any]:
        return {"model": self.model, "cases": self.ran + self.failed, **self.__dict__}

    @property
    def note(self) -> str | None:
        """What the reader must know when some or all critique calls failed."""
        if not self.failed:
            return None
        cases = self.ran + self.failed
        if not self.ran:
            return (
                f"the {self.model} critique failed for all {cases} case"
                f"{'s' if cases > 1 else ''}: only the rules reviewed them (see the notes)"
            )
        return f"the {self.model} critique failed for {self.failed} of {cases} cases"


@dataclass
class ReviewReport:
    files: list[FileReview]
    critique: CritiqueTally | None = None
    """None: no model was configured."""
    usage: Usage = field(default_factory=Usage)

    @property
    def engine(self) -> str:
        """`rules`, or `rules+llm:<model>` when a model critique answered for a case."""
        if self.critique is None or not self.critique.ran:
            return "rules"
        return f"rules+{self.critique.model}"

    @property
    def failed(self) -> bool:
        return any(f.errors for f in self.files)

    def summary(self) -> dict[str, Any]:
        comments = [c for f in self.files for c in f.comments]
        return {
            "files": len(self.files),
            "comments": len(comments),
            "errors": sum(c.severity == "error" for c in comments),
            "warnings": sum(c.severity == "warning" for c in comments),
            "by_code": dict(sorted(Counter(c.code for c in comments).items())),
            "invalid_files": sum(not f.valid for f in self.files),
        }

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "files": [f.to_json() for f in self.files],
            "summary": self.summary(),
            "engine": self.engine,
        }
        if self.critique is not None:
            out["critique"] = self.critique.to_json()
            if self.critique.note:
                out["critique"]["note"] = self.critique.note
        if self.usage.calls or self.usage.cache_hits:
            out["usage"] = self.usage.model_dump()
        return out


class Reviewer:
    """Runs the rules over a set of documents that know about each other (for duplicates).

    Projects and their vocabularies are read once however many files refer to them.
    """

    def __init__(self, project: Path | None = None) -> None:
        self.projects = ProjectCache(project)
        self._vocab: dict[int, Vocabulary] = {}
        self._suite: dict[tuple[int, str], list[Peer]] = {}

    def load(
        self,
        path: Path,
        *,
        text: str | None = None,
        dialect: str | None = None,
        explicit: bool = True,
    ) -> LoadedFile | None:
        """Parse one file (or `text` standing for it); None for a searched non-case file."""
        doc = load_document(path, text=text)
        chosen = dialect_of(doc.data, path, dialect)
        if chosen is None and not explicit:
            return None
        project = self.projects.for_file(path, chosen) if chosen else None
        if project is not None and chosen is not None and project.kind != chosen.project_kind:
            project = None
        views = case_views(doc.data, chosen.name, project, path) if chosen else []
        return LoadedFile(path, doc, chosen, project, views)

    def comments(
        self, item: LoadedFile, *, peers: Sequence[Peer] = (), order: int = 0
    ) -> list[Finding]:
        """Rule comments for one loaded file, located by line, in file order."""
        env = ReviewEnv(project=item.project, vocab=self.vocabulary(item.project))
        env.peers = [*self.suite_peers(item), *peers]
        found: list[Finding] = []
        for index, view in enumerate(item.views):
            env.order = order + index
            for rule in RULES.values():
                found += rule.check(view, env)
        return sort_findings(item.doc.locate(found))

    def file_review(
        self, item: LoadedFile, *, peers: Sequence[Peer] = (), order: int = 0
    ) -> FileReview:
        if item.dialect is None:
            problems = item.doc.findings or [
                Finding(
                    code="schema",
                    line=1,
                    message="cannot tell which dialect this file is",
                    suggestion="pass --dialect mantle|anychat|base44",
                )
            ]
            return FileReview(str(item.path), None, list(problems), valid=False)
        findings = validate_document(item.doc, item.dialect, item.project)
        valid = not any(f.severity == "error" for f in findings)
        if not item.doc.parsed:
            return FileReview(
                str(item.path),
                item.dialect.name,
                [f for f in findings if f.code == "parse"],
                valid=False,
            )
        review = FileReview(
            str(item.path),
            item.dialect.name,
            self.comments(item, peers=peers, order=order),
            valid=valid,
        )
        if not valid:
            review.notes.append("the file is not valid; `casegen validate` lists why")
        return review

    def vocabulary(self, project: Project | None) -> Vocabulary:
        key = id(project)
        if key not in self._vocab:
            self._vocab[key] = vocabulary(project)
        return self._vocab[key]

    def suite_peers(self, item: LoadedFile) -> list[Peer]:
        """The committed cases of the project's suite (never counted as under review)."""
        if item.project is None or item.dialect is None:
            return []
        key = (id(item.project), item.dialect.name)
        if key not in self._suite:
            peers: list[Peer] = []
            for file in item.dialect.suite_files(item.project):
                loaded = self.load(file, dialect=item.dialect.name)
                for view in loaded.views if loaded else []:
                    peers.append(_peer(view, _display(file, item.project)))
            self._suite[key] = peers
        return self._suite[key]


def _peer(view: CaseView, label: str, order: int | None = None) -> Peer:
    resolved = str(view.path.resolve()) if view.path else ""
    shown = label if not view.base else f"{label}#{view.title}"
    return Peer(shown, (resolved, view.base), view.fingerprint, order)


def _display(path: Path, project: Project) -> str:
    return project.relpath(path)


def load_reviewed(
    reviewer: Reviewer, paths: Sequence[Path], *, dialect: str | None = None
) -> list[LoadedFile]:
    """The case files named or found under `paths` (folders: only files that are cases)."""
    loaded: list[LoadedFile] = []
    for file, explicit in iter_candidate_files(paths):
        item = reviewer.load(file, dialect=dialect, explicit=explicit)
        if item is not None:
            loaded.append(item)
    return loaded


def review_peers(items: Sequence[LoadedFile]) -> tuple[list[Peer], list[int]]:
    """Peers for the reviewed cases themselves, and each file's first case position."""
    peers: list[Peer] = []
    starts: list[int] = []
    order = 0
    for item in items:
        starts.append(order)
        for view in item.views:
            peers.append(_peer(view, str(item.path), order))
            order += 1
    return peers, starts


async def review_paths(
    paths: Sequence[Path],
    *,
    project: Path | None = None,
    dialect: str | None = None,
    critic: Any = None,
    revise: bool = False,
) -> ReviewReport:
    """Review files and folders: rules always, plus the model's critique when `critic` is set.
    With `revise`, critique comments that name a concrete fix go to the model's revise and
    a valid revision replaces them (`_critique_revise`).

    Args:
        paths: Case files or folders (searched recursively for cases).
        project: The project folder (default: each file's nearest, or its manifest's).
        dialect: Force a dialect.
        critic: A `ReviewModel`; None reviews with the rules only.
    """
    reviewer = Reviewer(project)
    items = load_reviewed(reviewer, paths, dialect=dialect)
    peers, starts = review_peers(items)
    tally = CritiqueTally(critic.name) if critic is not None else None
    report = ReviewReport(files=[], critique=tally)
    for item, start in zip(items, starts, strict=True):
        review = reviewer.file_review(item, peers=peers, order=start)
        if tally is not None and item.dialect is not None and item.doc.parsed:
            done = await critique_file(critic, item, review.comments)
            found = done.findings
            if revise:
                revised = await revise_concrete(critic, item, found)
                found = [f for f in found if f not in revised.answered]
                review.revisions += revised.revisions
                review.notes += revised.notes
                report.usage = report.usage + revised.usage
            review.comments = sort_findings([*review.comments, *found])
            review.notes += done.notes
            report.usage = report.usage + done.usage
            tally.ran += done.ran
            tally.failed += done.failed
        report.files.append(review)
    return report


__all__ = [
    "REVIEW_CODES",
    "CritiqueTally",
    "FileReview",
    "ReviewReport",
    "Reviewer",
    "review_paths",
]
