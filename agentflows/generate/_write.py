"""Turning valid drafts into files: names, provenance, canonical text, manifest."""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from evalcore import read_limited
from evalcore.dialects import Provenance
from evalcore.documents import load_document
from evalcore.justify import needs_review_note
from evalcore.manifest import (
    ManifestEntry,
    load_manifest,
    manifest_path_for,
    relevant_sources,
    save_manifest,
)
from evalcore.redact import redact, redact_fresh
from evalcore.writer import contained_child, safe_slug, write_case_file

from ..planning import Behavior
from .context import GenerateContext


def case_path(ctx: GenerateContext, behavior: Behavior) -> Path:
    """Where a case goes: inside its out folder whatever its ids hold (checked)."""
    return case_target(ctx, behavior)[0]


def case_target(ctx: GenerateContext, behavior: Behavior) -> tuple[Path, Path]:
    """`case_path` and the same path resolved; each out folder is resolved once per run."""
    out = ctx.out_dir(behavior.source)
    name = ctx.dialect.case_filename(behavior.source, behavior.case, behavior.type)
    root = ctx.resolved_dirs.get(out)
    if root is None:
        root = ctx.resolved_dirs[out] = out.resolve()
    return contained_child(out, root, safe_slug(name))


def with_provenance(
    ctx: GenerateContext, behavior: Behavior, data: dict[str, Any], generated_at: str
) -> dict[str, Any]:
    """The case with its provenance inline where the dialect's cases carry it; the other
    dialects leave it to the manifest, since their schemas have no place for it."""
    if not ctx.dialect.provenance_inline:
        return data
    provenance = Provenance(
        source=behavior.source,
        case=behavior.case,
        case_type=behavior.type,
        engine=ctx.engine.name,
        behavior=behavior.id,
        sources=relevant_sources(ctx.project, ctx.dialect.name, behavior.source),
        generated_at=generated_at,
    )
    return ctx.dialect.with_provenance(data, provenance)


def write_one(
    ctx: GenerateContext, path: Path, data: dict[str, Any], needs_review: Sequence[str] = ()
) -> str:
    """Write a case; returns the write status (created/unchanged/overwritten/conflict).
    Secrets are masked first: a model may echo a key it saw in an error or the environment.
    Each check carries its justification as a comment where the dialect writes one, and a
    case written unverified says why at its top (`needs_review`: the reasons)."""
    data = redact_fresh(data)
    if needs_review:
        notes = [needs_review_note(redact(reason)) for reason in needs_review]
        text = ctx.dialect.dump_justified(data, ctx.project, notes)
    else:
        text = render(ctx, data)
    if (
        path.exists()
        and ctx.dialect.provenance_inline
        and ctx.dialect.same_but_time(load_document(path).data, data)
    ):
        return "unchanged"
    status = write_case_file(path, text, force=ctx.request.force).status
    if status in ("created", "overwritten"):  # these bytes, as `atomic_write_text` wrote them
        content = text.encode("utf-8", errors="backslashreplace")
        ctx.written_sha256[str(path)] = hashlib.sha256(content).hexdigest()
    return status


def content_key(data: Any) -> str | None:
    """The key a case's data is kept under for the run (its JSON, keys in order); None for
    data JSON cannot write (nothing is kept for it)."""
    try:
        return json.dumps(data, ensure_ascii=False)
    except (TypeError, ValueError):
        return None


def render(ctx: GenerateContext, data: dict[str, Any], *, keep: bool = False) -> str:
    """`data`'s text as its case file holds it (each check justified where the dialect
    writes that); made once per run for the same data when `keep` kept it."""
    key = content_key(data) if keep or ctx.rendered else None
    text = ctx.rendered.get(key) if key is not None else None
    if text is None:
        text = ctx.dialect.dump_justified(data, ctx.project)
        if keep and key is not None:
            ctx.rendered[key] = text
    return text


def prerender(ctx: GenerateContext, behavior: Behavior, data: dict[str, Any]) -> None:
    """Make a settled case's file text now, while other answers are awaited, so writing it
    after the last answer costs only the bytes (`write_one` finds it by its data). Only
    where the text costs work: a dialect that justifies each check."""
    if ctx.dialect.justifies:
        render(ctx, redact_fresh(with_provenance(ctx, behavior, data, ctx.started_at)), keep=True)


def manifest_file_for(ctx: GenerateContext, case_file: Path) -> Path:
    """`--manifest`, else the manifest above the case's folder (`manifest_path_for`)."""
    if ctx.request.manifest:
        return Path(ctx.request.manifest)
    return manifest_path_for(ctx.request.manifest_root() or case_file.parent)


def check_manifest(ctx: GenerateContext, case_file: Path) -> None:
    """Raise ManifestError now when the manifest could not be updated after writing."""
    load_manifest(manifest_file_for(ctx, case_file))


def update_manifest(ctx: GenerateContext, written: list[dict[str, Any]]) -> Path | None:
    """Record provenance for every file this run wrote or confirmed unchanged."""
    records = [w for w in written if w["status"] in ("created", "unchanged", "overwritten")]
    if not records:
        return None
    manifest_file = manifest_file_for(ctx, Path(records[0]["path"]))
    manifest = load_manifest(manifest_file)
    base = manifest_file.parent
    try:
        project = Path(ctx.project.root).resolve().relative_to(base.resolve())
        project_ref = project.as_posix()
    except ValueError:
        project_ref = Path(os.path.relpath(ctx.project.root.resolve(), base)).as_posix()
    hashes: dict[str, dict[str, str]] = {}  # per source: the same for all its cases
    folders: dict[Path, Path] = {}
    for record in records:
        given = Path(record["path"])
        folder = folders.get(given.parent)
        if folder is None:
            folder = folders[given.parent] = given.parent.resolve()
        path = given.resolve() if given.is_symlink() else folder / given.name
        try:
            key = path.relative_to(base).as_posix()
        except ValueError:
            key = path.as_posix()
        digest = ctx.written_sha256.get(record["path"]) if path == folder / given.name else None
        if digest is None:  # unchanged, or written through a link: hash what is there
            digest = hashlib.sha256(read_limited(path)).hexdigest()
        previous = manifest.cases.get(key)
        unchanged = previous is not None and previous.content_sha256 == digest
        sources = hashes.get(record["source"])
        if sources is None:
            sources = relevant_sources(ctx.project, ctx.dialect.name, record["source"])
            hashes[record["source"]] = sources
        manifest.cases[key] = ManifestEntry(
            dialect=ctx.dialect.name,
            source=record["source"],
            behavior=record["behavior"] if not unchanged else previous.behavior,
            type=record["type"],
            engine=ctx.engine.name if not unchanged else previous.engine,
            model=ctx.engine.model if not unchanged else previous.model,
            generated_at=ctx.started_at if not unchanged else previous.generated_at,
            run_id=ctx.run_id if not unchanged else previous.run_id,
            project=project_ref,
            # Always today's hashes: regenerating the same bytes confirms the case still
            # matches the definitions as they are now (otherwise it would stay "stale").
            sources=dict(sources),
            content_sha256=digest,
            # A verdict holds for the bytes it was given on; new content needs a new review.
            review=previous.review if unchanged else None,
        )
    save_manifest(manifest_file, manifest)
    return manifest_file


def short_json(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, sort_keys=True)
