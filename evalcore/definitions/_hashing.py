"""Content hashes of definition files: the key that tells which generated cases went stale.

A hash is over the file's bytes exactly as read, so the same content always gives the same
hash (whatever its path or mtime) and any edit, whitespace included, changes it.
"""

from __future__ import annotations

from collections.abc import Mapping

from .._sha256 import sha256
from ._model import SourceFile


def sha256_hex(data: bytes) -> str:
    """Lower-case hex SHA-256 of `data`."""
    return sha256(data).hexdigest()


def source_files(hashes: Mapping[str, str]) -> list[SourceFile]:
    """`SourceFile`s sorted by path, from a `{root-relative posix path: sha256}` map."""
    return [SourceFile(path=path, sha256=digest) for path, digest in sorted(hashes.items())]
