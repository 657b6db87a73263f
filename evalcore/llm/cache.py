"""An on-disk cache of structured model answers: same request → same answer, no tokens spent.

Re-running a generation (a resumed run, a re-run after editing one prompt) then costs nothing
for the unchanged requests, and offline tests can replay answers. One JSON file per answer,
`<cache_dir>/<key[:2]>/<key>.json`, so entries are easy to inspect or delete by hand; writes
go through a temporary file and `os.replace`, so a crashed or concurrent writer never leaves a
half-written entry.

Entries are JSON data and are read as such, under a size limit; an entry another user owns
or that others may write to is ignored with a warning (`evalcore._valuecache.trusted`), and
entries are written readable by this user only.
"""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from .._valuecache import read_cache
from ..workdir import ensure_dir

#: Bumped when the entry layout changes, so old entries are simply missed.
CACHE_VERSION = 1
#: The largest entry read (a model answer is far smaller).
MAX_ENTRY_BYTES = 8 * 1024 * 1024


def cache_key(
    *,
    model: str,
    base_url: str | None,
    messages: Sequence[dict[str, Any]],
    schema: dict[str, Any],
    method: str,
    temperature: float | None,
) -> str:
    """sha256 over everything that changes the answer (never the key or the timeout)."""
    payload = {
        "v": CACHE_VERSION,
        "model": model,
        "base_url": base_url,
        "messages": list(messages),
        "schema": schema,
        "method": method,
        "temperature": temperature,
    }
    text = json.dumps(payload, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


class ResponseCache:
    """A folder of cached answers keyed by `cache_key`."""

    def __init__(self, root: str | Path) -> None:
        self.root = Path(root)

    def path_for(self, key: str) -> Path:
        return self.root / key[:2] / f"{key}.json"

    def get(self, key: str) -> dict[str, Any] | None:
        """The stored entry, or None when absent or unreadable (a damaged entry is a miss)."""
        data = read_cache(self.path_for(key), MAX_ENTRY_BYTES)
        if data is None:
            return None
        try:
            entry = json.loads(data.decode("utf-8"))
        except (ValueError, RecursionError):
            return None
        return entry if isinstance(entry, dict) and entry.get("key") == key else None

    def put(self, key: str, entry: dict[str, Any]) -> Path:
        """Store `entry` atomically under `key` (the key is added to the entry).

        Key order is kept as the model wrote it: a cached answer must come back exactly as the
        first one did, or a re-run writes reordered maps and its files read as changed.
        """
        path = self.path_for(key)
        ensure_dir(path.parent)
        text = json.dumps({**entry, "key": key}, ensure_ascii=False, indent=2)
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{key[:8]}.", suffix=".tmp")
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as handle:
                handle.write(text + "\n")
            os.replace(tmp, path)
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise
        return path


__all__ = ["CACHE_VERSION", "ResponseCache", "cache_key"]
