"""One case as review rules see it: its criteria, its persona text, its type, its source.

Rules that read prose (criteria, persona) work on `CaseView.criteria` / `.contexts` and never
ask which dialect a document is; rules about what checks show read `CaseView.data` and say
which checks vocabulary they read when they register (`Dialect.checks_vocabulary`). A
base44 eval holds one case per prompt, so one document can give several views, each with
its own pointer `base`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from evalcore.dedupe import Fingerprint, fingerprint
from evalcore.definitions import Project
from evalcore.dialects import Dialect, dialect_names, get_dialect
from evalcore.documents import Document

from ._source import case_source
from ._vocab import Vocabulary


@dataclass(frozen=True)
class Part:
    """A piece of prose in the case and where it is (pointer relative to the case)."""

    path: str
    text: str


@dataclass
class CaseView:
    dialect: str
    base: str
    """Pointer of the case inside its document ("" or `/prompts/<i>`)."""
    data: dict[str, Any]
    """The case's own mapping (the whole document, or one base44 prompt entry)."""
    title: str
    type: str | None
    source: str | None
    """The skill / playbook / agent skill under test, when it can be told."""
    criteria: list[Part] = field(default_factory=list)
    """What the judge grades."""
    contexts: list[Part] = field(default_factory=list)
    """What the simulated user is told (persona, facts, goal)."""
    fingerprint: Fingerprint = field(default_factory=lambda: Fingerprint(frozenset(), frozenset()))
    label: str = ""
    """How other cases refer to this one (`path`, or `path#prompt-name`)."""
    path: Path | None = None
    title_path: str = ""
    """Pointer of the title, relative to the case ("" when the case has none)."""


@dataclass(frozen=True)
class Peer:
    """Another case a near-duplicate is looked for in."""

    label: str
    key: tuple[str, str]
    """(resolved file, base): the same case reviewed is not its own duplicate."""
    fingerprint: Fingerprint
    order: int | None = None
    """Position among the reviewed cases (None: a committed case not under review)."""


@dataclass
class ReviewEnv:
    """What rules may consult besides the case: the project, its ids, the other cases."""

    project: Project | None
    vocab: Vocabulary
    peers: list[Peer] = field(default_factory=list)
    order: int = 0
    """This case's position among the reviewed cases."""


def case_views(
    data: Any,
    dialect: str,
    project: Project | None,
    path: Path | None = None,
    *,
    fingerprints: bool = True,
) -> list[CaseView]:
    """The cases of one parsed document (tolerates any shape; unknown shapes give none).
    `fingerprints=False`: views for a review without peers, where only `near-duplicate`
    reads the fingerprint (left empty)."""
    if not isinstance(data, dict):
        return []
    label = str(path) if path is not None else "<case>"
    if dialect not in dialect_names():
        return []
    plugin = get_dialect(dialect)
    views = [
        CaseView(
            dialect=dialect,
            base=case.base,
            data=case.data,
            title=case.title,
            title_path=case.title_path,
            type=case.type,
            source=None,
            criteria=[Part(*c) for c in case.criteria],
            contexts=[Part(*c) for c in case.contexts],
        )
        for case in plugin.case_prose(data)
    ]
    for view in views:
        view.path = path
        view.source = case_source(project, dialect, view.data, path)
        view.label = label if not view.base else f"{label}#{view.title}"
        if fingerprints:
            view.fingerprint = fingerprint(plugin.as_unit(view.data), plugin)
    return views


def words(text: str) -> list[str]:
    return re.findall(r"[a-z0-9']+", text.lower())


@dataclass
class LoadedFile:
    """One file as review reads it: the parsed document, its dialect and project (None when
    unknown), and the views of the cases it holds."""

    path: Path
    doc: Document
    dialect: Dialect | None
    project: Project | None
    views: list[CaseView]


__all__ = ["CaseView", "LoadedFile", "Part", "Peer", "ReviewEnv", "case_views", "words"]
