"""Starter files a case's fixture needs beside it: the `project/` tree the agent works in.

    statuses = write_starters(case_file, behaviors, force=False)

A behaviour whose task is done on input files (a bug to fix in a small module, say) carries
them in its `starter` fact (path under `project/` → text). They are written into the
`project/` folder beside the case file, once per path (the first behaviour naming a path
wins: the prompts of one fixture share its project), with the case file's rules: the same
text is left as it is, a different file is a person's edit and is kept unless `force`, and
no path may leave the folder.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from evalcore.writer import contained, write_case_file

from ..planning import Behavior

PROJECT_DIR = "project"


def write_starters(
    case_file: Path, behaviors: Iterable[Behavior], *, force: bool = False
) -> dict[str, str]:
    """Write every starter file of `behaviors` under `project/` beside `case_file`; the
    status of each (`created`, `unchanged`, `overwritten`, `conflict`) by its path there."""
    files: dict[str, str] = {}
    for behavior in behaviors:
        starter = behavior.facts.get("starter")
        if isinstance(starter, dict):
            for rel, text in starter.items():
                if isinstance(rel, str) and isinstance(text, str):
                    files.setdefault(rel, text)
    if not files:
        return {}
    base = case_file.parent / PROJECT_DIR
    statuses: dict[str, str] = {}
    for rel, text in sorted(files.items()):
        path = contained(base, base / rel)
        statuses[rel] = write_case_file(path, text, force=force).status
    return statuses


__all__ = ["PROJECT_DIR", "write_starters"]
