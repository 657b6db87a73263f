"""Cases that already exist: the project's own suite and earlier output (for dedupe)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

from evalcore.dedupe import Fingerprint, fingerprint
from evalcore.definitions import Project
from evalcore.dialects import Dialect
from evalcore.dialects.base44 import prompt_entries as as_prompt_entries
from evalcore.documents import load_document

__all__ = ["as_prompt_entries", "suite_files", "unit_fingerprints"]


def suite_files(project: Project, dialect: Dialect) -> list[Path]:
    """The project's committed cases of this dialect."""
    return dialect.suite_files(project)


def unit_fingerprints(path: Path, dialect: Dialect) -> Iterator[tuple[str, Fingerprint]]:
    """Fingerprints of the cases in one file (a base44 eval holds one per prompt)."""
    doc = load_document(path)
    if not isinstance(doc.data, dict):
        return
    if dialect.cases_per_file:
        for name, unit in dialect.case_units(doc.data):
            yield f"{path}#{name}", fingerprint(unit, dialect)
    elif dialect.sniff(doc.data, path):
        yield str(path), fingerprint(doc.data, dialect)
