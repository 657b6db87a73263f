"""One diagnosis per root cause: the failed runs that one defect explains, grouped.

Every rule names what its runs have in common (`Diagnosis.cause`: the tool that fails, the
skills a request is routed between, the gate that was skipped, the skill and the element an
Instruction check is about, or, for a case's own problem, the case). Runs whose diagnoses
share the bucket and that cause are one cause: it is reported once, with the evidence and fix
of its first run and the list of runs it explains. Causes come most runs first.
"""

from __future__ import annotations

from typing import Any

from ._diagnosis import Diagnosis


def group_causes(diagnosed: list[tuple[Diagnosis, dict[str, Any]]]) -> list[dict[str, Any]]:
    """The causes of `diagnosed` (each a diagnosis and its `failures` entry); each failure
    entry gets the id of its cause under `"cause"`."""
    groups: dict[tuple[Any, ...], list[tuple[Diagnosis, dict[str, Any]]]] = {}
    for diagnosis, failure in diagnosed:
        key = (diagnosis.bucket, *(diagnosis.cause or (diagnosis.rule, failure["slug"])))
        groups.setdefault(key, []).append((diagnosis, failure))
    ordered = sorted(groups.values(), key=len, reverse=True)  # stable: first seen first on ties
    causes = []
    for number, members in enumerate(ordered, start=1):
        cause_id = f"C{number}"
        first_diagnosis, first = members[0]
        for _, failure in members:
            failure["cause"] = cause_id
        causes.append(
            {
                "id": cause_id,
                "bucket": first_diagnosis.bucket,
                "cause": first_diagnosis.title or first_diagnosis.rule,
                "rule": first_diagnosis.rule,
                "turn": first["turn"],
                "cases": list(dict.fromkeys(f["slug"] for _, f in members)),
                "runs": [
                    {k: f[k] for k in ("case", "slug", "run", "turn", "file")} for _, f in members
                ],
                "evidence": first["evidence"],
                "fix": first["fix"],
                "method": first["method"],
            }
        )
    return causes


__all__ = ["group_causes"]
