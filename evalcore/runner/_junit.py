"""JUnit XML for CI: one `<testcase>` per case × run, failures and errors kept apart.

A failed run (the agent's behaviour) is a `<failure>`; an errored run (the harness: agent
unreachable, timeout, model failure) is an `<error>`, so CI dashboards do not blame the agent
for an outage. A pass that covers assertions only carries the property `judged=false`.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from collections.abc import Sequence

from ._record import RunRecord


def junit_xml(
    records: Sequence[RunRecord], *, name: str = "casegen run", wall_clock_s: float = 0.0
) -> str:
    suites = ET.Element(
        "testsuites",
        {
            "name": name,
            "tests": str(len(records)),
            "failures": str(sum(r.status == "failed" for r in records)),
            "errors": str(sum(r.status == "errored" for r in records)),
            "time": f"{wall_clock_s:.3f}",
        },
    )
    by_slug: dict[str, list[RunRecord]] = {}
    for record in records:
        by_slug.setdefault(record.scenario_slug, []).append(record)
    for slug, runs in by_slug.items():
        suite = ET.SubElement(
            suites,
            "testsuite",
            {
                "name": slug,
                "tests": str(len(runs)),
                "failures": str(sum(r.status == "failed" for r in runs)),
                "errors": str(sum(r.status == "errored" for r in runs)),
                "time": f"{sum(r.duration_s for r in runs):.3f}",
                "timestamp": runs[0].timestamp,
            },
        )
        for run in runs:
            _testcase(suite, run)
    ET.indent(suites)
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(suites, "unicode") + "\n"


def _testcase(suite: ET.Element, run: RunRecord) -> None:
    case = ET.SubElement(
        suite,
        "testcase",
        {
            "classname": f"{run.dialect}.{run.scenario_slug}",
            "name": f"{run.scenario_name} [run {run.run_index}]",
            "file": run.case_path,
            "time": f"{run.duration_s:.3f}",
        },
    )
    properties = ET.SubElement(case, "properties")
    for key, value in (
        ("judged", str(run.judged).lower()),
        ("status", run.status),
        ("turns", str(run.turns)),
        ("simulator", run.simulator.engine),
        ("judge", run.judge.engine),
    ):
        ET.SubElement(properties, "property", {"name": key, "value": value})
    if run.status == "errored":
        error = ET.SubElement(
            case, "error", {"message": run.error or "errored", "type": "HarnessError"}
        )
        error.text = run.error or ""
    elif run.status == "failed":
        problems = [
            f"assertion {a['type']}: {a['detail']}" for a in run.assertions if not a["passed"]
        ]
        problems += [
            f"criterion {c.verdict}: {c.criterion} — {c.reason}"
            for c in run.criteria
            if c.verdict in ("fail", "inconclusive")
        ]
        failure = ET.SubElement(
            case,
            "failure",
            {
                "message": problems[0] if problems else "failed",
                "type": "CaseFailed",
            },
        )
        failure.text = "\n".join(problems)
    out = ET.SubElement(case, "system-out")
    out.text = "\n".join(f"[T{u.turn}] {u.role}: {u.text}" for u in run.transcript)


__all__ = ["junit_xml"]
