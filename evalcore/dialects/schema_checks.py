"""`python -m evalcore.dialects.schema_checks`: write the compiled schema check each
registered dialect ships (`evalcore/_fastchecks`, see `evalcore._fastcheck`).

It lives on the registry's side: the gate itself sits below the dialects, whose schemas it
checks, and knows none of them. Run it after changing a dialect's schema or the gate (or
upgrading fastjsonschema); `tests/test_validate_caches.py` says when it is due."""

from __future__ import annotations

from pathlib import Path

from .._fastcheck import write_shipped
from . import all_dialects


def write_all(folder: Path | None = None) -> list[Path]:
    """Write the shipped check of every registered dialect and the index."""
    return write_shipped({d.name: d.schema for d in all_dialects()}, folder)


if __name__ == "__main__":
    for written in write_all():
        print(written)
