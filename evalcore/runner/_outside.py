"""Which cases of a run expect a tool to run whose code acts on a real service.

Against the agent itself, with the service's credentials in its environment, such a case
does what the tool does for real (posts, sends, books); `mantle:` plays none of them (the
reference agent never runs a tool's code). `casegen run` says which, per tool.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..definitions import Project
from ..dialects import get_dialect
from ..runcase import RunCase


def outside_runs(cases: Sequence[RunCase], project: Project | None) -> list[dict[str, Any]]:
    """Per tool acting on a real service: its effect (`{tool, service, calls, changes,
    credentials}`) and the `cases` (slugs) that expect it to run, in the cases' order."""
    found: dict[str, dict[str, Any]] = {}
    for case in cases:
        data = {"scenario": {"goals": {"assertions": case.checks}}}
        for effect in get_dialect(case.dialect).outside_effects(data, project):
            entry = found.setdefault(effect["tool"], {**effect, "cases": []})
            if case.slug not in entry["cases"]:
                entry["cases"].append(case.slug)
    return list(found.values())


__all__ = ["outside_runs"]
