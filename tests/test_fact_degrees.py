"""An observed symptom fits the degree the case's choice names, and the thing it names.

Found by blind reviewers on an incident skill whose severity buttons read "sev1: outage",
"sev3: minor, has workaround", "sev4: cosmetic / near miss": every case told "5xx at 12%"
and "~30% of checkouts fail" (the fields' examples), a sev3 and a sev4 with a major
degradation, a sev1 with less than an outage, and a push-gateway or search-indexer incident
with failing checkouts, which only the checkout service has.
"""

from __future__ import annotations

from pathlib import Path

from agentflows.drafting.offline._mantle_script import build_script
from agentflows.planning import plan_source
from evalcore.definitions import load_project
from evalcore.testdata import degree_of

CORPUS = Path(__file__).parent / "data" / "corpus"


def test_a_choice_names_its_degree_in_its_own_words() -> None:
    outage, minor, cosmetic = (
        degree_of([p]) for p in ("sev1: outage", "sev3: minor, has workaround", "sev4: near miss")
    )
    assert outage and minor and cosmetic and len({outage, minor, cosmetic}) == 3
    assert "100%" in outage.observed and "retries succeed" in minor.observed
    assert degree_of(["sev2: major degradation"]) is None  # the example's own degree


def test_each_incident_tells_a_symptom_of_its_severity_on_its_own_service() -> None:
    project = load_project(CORPUS / "forge_platform")
    plan = plan_source(project, "mantle", "incidents", None)
    seen = set()
    for slot, behavior in enumerate(plan.behaviors):
        script = build_script(project, behavior, slot=slot)
        memory = script.walk.memory
        facts = {f.field: f.value for f in script.sheet.facts}
        summary = facts.get("incidents.summary")
        service = memory.get("incidents.service")
        if not isinstance(summary, str) or not isinstance(service, str):
            continue
        severity = memory.get("incidents.severity")
        seen.add(severity)
        assert service in summary, (behavior.id, summary)
        if severity in ("sev1", "sev3", "sev4"):
            assert "12%" not in summary, (behavior.id, severity, summary)
        if severity == "sev1":
            assert "100%" in summary, (behavior.id, summary)
        impact = facts.get("incidents.customer_impact", "")
        if service != "checkout-api":
            assert "checkout" not in impact, (behavior.id, service, impact)
    assert {"sev1", "sev3"} <= seen
