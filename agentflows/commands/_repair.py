"""`repair`: deterministic fixes of case files, as `casegen repair --json` and the MCP tool
`repair_cases` return them (the CLI prints the same records as diffs)."""

from __future__ import annotations

import difflib
from pathlib import Path
from typing import TYPE_CHECKING, Any

from evalcore.justify import redump, without_justifications

if TYPE_CHECKING:  # the dialects, schemas and repair load when a repair runs, not for --help
    from evalcore.findings import Finding
    from evalcore.validation import ProjectCache

KEEPS_COMMENTS = (
    "not rewritten: the file has comments, which a rewrite would drop; fix it by hand or "
    "pass --force to rewrite it without them"
)


def repair_file(
    path: Path,
    projects: ProjectCache,
    *,
    dialect: str | None,
    dry_run: bool,
    explicit: bool,
    force: bool = False,
) -> dict[str, Any] | None:
    """Repair one file; returns the JSON record (None for a searched non-case file).

    A YAML file with comments is not rewritten without `force`: the canonical writer cannot
    keep them (see docs/findings.md#repair). The justification comments casegen writes
    beside each check are no obstacle: the repaired case is justified again."""
    from evalcore.dialects import dialect_of  # start-up: yaml and 17 casegen modules
    from evalcore.documents import load_document  # start-up: yaml and 11 casegen modules

    # start-up: evalcore.findings, which --help never needs
    from evalcore.findings import Finding, sort_findings
    from evalcore.repair import repair_data  # start-up: 5 casegen modules
    from evalcore.validation import validate_document  # start-up: yaml and 43 casegen modules
    from evalcore.writer import atomic_write_text  # start-up: yaml and 10 casegen modules
    from evalcore.yamlio import has_comments  # start-up: yaml and 5 casegen modules

    doc = load_document(path)
    chosen = dialect_of(doc.data, path, dialect)
    if chosen is None:
        if not explicit:
            return None
        return _record(
            path,
            None,
            [],
            None,
            doc.findings
            or [Finding(code="schema", message="cannot tell which dialect this file is")],
        )
    project = projects.for_file(path, chosen)
    if doc.findings:
        # A file that does not parse cleanly (syntax error, duplicate key) is left for a
        # person: rewriting it would silently drop one of the duplicated values.
        return _record(path, chosen.name, [], None, validate_document(doc, chosen, project))
    outcome = repair_data(doc.data, chosen, project)
    new_text = redump(chosen, outcome.data, project, doc.text) if outcome.actions else None
    diff = None
    held = (
        new_text is not None
        and new_text != doc.text
        and not force
        and chosen.file_format == "yaml"
        and has_comments(without_justifications(doc.text))
    )
    if new_text is not None and new_text != doc.text:
        diff = "".join(
            difflib.unified_diff(
                doc.text.splitlines(keepends=True),
                new_text.splitlines(keepends=True),
                fromfile=str(path),
                tofile=f"{path} (repaired)",
            )
        )
        if not dry_run and not held:
            atomic_write_text(path, new_text)
    # What the file holds afterwards (or would, for --dry-run): the repaired text, unless a
    # commented file was held back.
    after = doc.text if held else (new_text or doc.text)
    remaining = sort_findings(validate_document(chosen.load(path, text=after), chosen, project))
    record = _record(
        path,
        chosen.name,
        outcome.actions,
        diff,
        remaining,
        written=bool(diff) and not dry_run and not held,
    )
    record["skipped"] = KEEPS_COMMENTS if held else None
    return record


def _record(
    path: Path,
    dialect: str | None,
    actions: list[Any],
    diff: str | None,
    findings: list[Finding],
    *,
    written: bool = False,
) -> dict[str, Any]:
    # start-up: evalcore.findings, which --help never needs
    from evalcore.findings import FileReport

    report = FileReport(path=str(path), dialect=dialect, findings=findings)
    return {
        **report.to_json(),
        "repairs": [a.to_json() for a in actions],
        "diff": diff,
        "written": written,
        "skipped": None,
    }


def repair_payload(
    paths: list[Path],
    *,
    project: Path | None,
    dialect: str | None,
    dry_run: bool,
    force: bool = False,
) -> dict[str, Any]:
    """What `casegen repair --json` prints (the MCP tool returns the same)."""
    # start-up: yaml and 43 casegen modules
    from evalcore.validation import ProjectCache, iter_candidate_files

    projects = ProjectCache(project)
    records = []
    for file, explicit in iter_candidate_files(paths):
        record = repair_file(
            file, projects, dialect=dialect, dry_run=dry_run, explicit=explicit, force=force
        )
        if record is not None:
            records.append(record)
    totals = {
        "files": len(records),
        "repaired": sum(bool(r["repairs"]) for r in records),
        "valid": sum(r["valid"] for r in records),
        "invalid": sum(not r["valid"] for r in records),
    }
    return {"files": records, "summary": totals, "dry_run": dry_run}


__all__ = ["KEEPS_COMMENTS", "repair_file", "repair_payload"]
