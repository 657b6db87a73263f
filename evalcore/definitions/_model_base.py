"""The base of every definition record and the source reference each one keeps."""

from __future__ import annotations

from .._record import Record, record


class _Model(Record):
    """Read from definition files by casegen's readers, then only read (see `_record`)."""


@record
class SourceRef(_Model):
    """Where a definition came from (repo-relative when possible)."""

    file: str
    line: int | None = None
