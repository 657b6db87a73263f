"""The commands that bring stale and broken cases back in line with the project.

A case nobody edited is simply regenerated (`--force` replaces the old file). A case a person
edited is revised instead, so the edit survives; and while any case of a source is edited,
its regeneration goes without `--force`, which would overwrite that edit.
"""

from __future__ import annotations

import shlex

from evalcore.dialects import dialect_for_kind

from ._model import CaseState


def hints_for(cases: list[CaseState], kinds: dict[str, str]) -> list[str]:
    """One `generate` command per project and dialect, one `revise` per edited case.

    `kinds` maps a case's (displayed) project folder to its project kind.
    """
    groups: dict[tuple[str, str], list[CaseState]] = {}
    for case in cases:
        groups.setdefault((case.project, case.dialect), []).append(case)
    hints: list[str] = []
    for (project, dialect), members in groups.items():
        outdated = [c for c in members if c.status in ("stale", "broken", "missing")]
        regenerate = sorted({c.source for c in outdated if not c.edited})
        if regenerate:
            edited_sources = {c.source for c in members if c.edited}
            command = ["casegen", "generate", *regenerate, "--project", project]
            plugin = dialect_for_kind(kinds.get(project))
            if (plugin.name if plugin is not None else None) != dialect:
                command += ["--dialect", dialect]
            if not edited_sources & set(regenerate):
                command.append("--force")
            hints.append("regenerate: " + shlex.join(command))
        for case in outdated:
            if case.edited:
                hints.append(
                    "revise (keeps the edit): "
                    + shlex.join(["casegen", "revise", case.path, "--comment", _comment(case)])
                )
    return hints


def _comment(case: CaseState) -> str:
    if case.unknown_ids:
        return "replace ids the project no longer defines: " + ", ".join(
            str(u.value) for u in case.unknown_ids
        )
    return "update for the changed definitions: " + ", ".join(c.path for c in case.changed_sources)
