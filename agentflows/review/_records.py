"""What a review leaves behind: the decision record and the manifest's `review` mark.

`.casegen/reviews/<review id>.json` lists every decision (path, action, reason, time), so a
rejected case stays explained after its file is gone (git keeps the file's history). A case
listed in `generated_cases/manifest.json` also gets `review: accepted | rejected` there.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from evalcore.manifest import MANIFEST_NAME, Manifest, ManifestEntry, load_manifest, save_manifest
from evalcore.writer import atomic_write_text


def manifest_entry(path: Path) -> tuple[Path, str, ManifestEntry] | None:
    """The nearest manifest above `path` that lists it: (manifest file, key, entry)."""
    resolved = path.resolve()
    for folder in resolved.parents:
        manifest_file = folder / MANIFEST_NAME
        if not manifest_file.is_file():
            continue
        manifest = _load(manifest_file)
        key = resolved.relative_to(folder).as_posix()
        if manifest is not None and key in manifest.cases:
            return manifest_file, key, manifest.cases[key]
    return None


def mark_manifest(path: Path, verdict: str) -> bool:
    """Set `review` on the manifest entry of `path`; False when no manifest lists it."""
    found = manifest_entry(path)
    if found is None:
        return False
    manifest_file, key, _ = found
    manifest = _load(manifest_file)
    if manifest is None:
        return False
    manifest.cases[key] = manifest.cases[key].model_copy(update={"review": verdict})
    save_manifest(manifest_file, manifest)
    return True


def _load(manifest_file: Path) -> Manifest | None:
    try:
        return load_manifest(manifest_file)
    except ValueError:
        return None  # a broken manifest is `casegen status`'s to report, not review's


def write_record(folder: Path, review_id: str, record: dict[str, Any]) -> Path:
    """Write `<folder>/<review id>.json` (the whole record, rewritten after each decision)."""
    target = folder / f"{review_id}.json"
    atomic_write_text(target, json.dumps(record, indent=2, ensure_ascii=False) + "\n")
    return target


__all__ = ["manifest_entry", "mark_manifest", "write_record"]
