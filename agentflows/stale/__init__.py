"""Stale cases: which generated cases no longer match the definitions they were drafted from.

    report = check_manifest(find_manifest(Path.cwd()))
    [c.path for c in report.cases if c.status == "stale"]

Statuses, worst first: `missing` (listed in the manifest, file deleted), `broken` (refers to
ids the project no longer defines), `stale` (a skill, memory, responses, tools, playbook or
SKILL.md file it depends on changed), `edited` (a person changed the file; not stale by
itself), `fresh`.
"""

from ._check import check_manifest, find_manifest, source_changes, unknown_ids
from ._model import STATUS_ORDER, CaseState, SourceChange, Status, StatusReport, UnknownId

__all__ = [
    "STATUS_ORDER",
    "CaseState",
    "SourceChange",
    "Status",
    "StatusReport",
    "UnknownId",
    "check_manifest",
    "find_manifest",
    "source_changes",
    "unknown_ids",
]
