"""A skill whose prose has a request for a person wait for its own work ("offer
@skill.adjuster_handoff after the claim is filed") gets no escalation criterion asking the
agent to hand over without finishing first: a correct agent finishes first."""

from __future__ import annotations

from pathlib import Path

from agentflows.drafting.offline._mantle_handoff import defers_handoff
from evalcore.definitions import load_project

CORPUS = Path(__file__).resolve().parent / "data" / "corpus"


def test_a_handoff_offered_after_the_work_is_deferred() -> None:
    harbor = load_project(CORPUS / "harbor_mutual")
    assert harbor.mantle is not None
    assert defers_handoff(harbor.mantle.skills["file_claim"], "adjuster_handoff")
    # "After two misses, offer @skill.agent_handoff": a condition on failures, not a
    # request for a person waiting for the work
    skyway = load_project(CORPUS / "skyway_air")
    assert skyway.mantle is not None
    assert not defers_handoff(skyway.mantle.skills["identify_trip"], "agent_handoff")


def test_the_escalation_case_keeps_no_criterion_the_skill_contradicts(tmp_path: Path) -> None:
    from skill_model_fixtures import generate_offline

    root = CORPUS / "harbor_mutual"
    generate_offline(root, ["file_claim"], tmp_path / "out")
    escalations = list((tmp_path / "out").rglob("file_claim_escalation.yml"))
    assert escalations
    text = escalations[0].read_text("utf-8")
    assert "without first insisting on finishing" not in text
    assert "out of speaking to a person" in text  # the other hand-off criterion stays
