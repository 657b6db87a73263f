"""Deterministic repair: fixes that need no model, each recorded and explained.

    outcome = repair_data(data, get_dialect("mantle"), project)
    outcome.actions   # [RepairAction(code, path, before, after, reason), ...]
    outcome.findings  # what is still wrong (needs a person or the model)

Rules never invent content: a fix is applied only when the finding itself determines it (one
close real id, a lossless type change, a case difference, a key the schema forbids where the
meaning is kept). Everything else stays reported.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ._generic import GENERIC_RULES, coerce_lossless, fix_enum_spelling, string_list_rule
from .actions import RepairAction, RepairRule

if TYPE_CHECKING:
    from ..definitions import Project
    from ..dialects import Dialect
    from ..findings import Finding

#: Upper bound on fixes per document; each round applies one fix and re-validates.
MAX_ROUNDS = 200


@dataclass
class RepairOutcome:
    data: Any
    actions: list[RepairAction] = field(default_factory=list)
    findings: list[Finding] = field(default_factory=list)

    @property
    def valid(self) -> bool:
        return not any(f.severity == "error" for f in self.findings)


def repair_data(data: Any, dialect: Dialect, project: Project | None) -> RepairOutcome:
    """Apply deterministic fixes until none applies; returns a repaired copy."""
    from ..validation import check_data  # start-up: yaml and 42 casegen modules

    current = copy.deepcopy(data)
    rules: list[RepairRule] = [*dialect.repair_rules(), *GENERIC_RULES]
    actions: list[RepairAction] = []
    findings = check_data(current, dialect, project)
    for _ in range(MAX_ROUNDS):
        applied = False
        for finding in findings:
            if finding.severity != "error":
                continue
            for rule in rules:
                action = rule(current, finding, project)
                if action is not None and action in actions:
                    continue  # never undo/redo the same change (no oscillation)
                if action is not None and action.applies_to(current):
                    action.apply(current)
                    actions.append(action)
                    applied = True
                    break
            if applied:
                break  # paths may have shifted: re-check before the next fix
        if not applied:
            break
        findings = check_data(current, dialect, project)
    return RepairOutcome(data=current, actions=actions, findings=findings)


__all__ = [
    "RepairAction",
    "RepairOutcome",
    "RepairRule",
    "coerce_lossless",
    "fix_enum_spelling",
    "repair_data",
    "string_list_rule",
]
