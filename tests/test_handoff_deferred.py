"""A skill whose prose has a request for a person wait for its own work ("offer
@skill.adjuster_handoff after the claim is filed") gets no escalation criterion asking the
agent to hand over without finishing first: a correct agent finishes first."""

from __future__ import annotations

from pathlib import Path

from agentflows.drafting import DraftContext
from agentflows.drafting.offline._mantle import draft_mantle
from agentflows.planning._mantle import plan_mantle
from agentflows.planning._mantle_phrases import defers_handoff
from evalcore.definitions import load_project
from evalcore.simulator import parse_fact_context

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
    # the hand-off criterion stays, allowing the one suggestion to finish first the prose makes
    assert "when the policyholder asks again it hands over" in " ".join(text.split())


def test_the_escalation_says_plainly_it_will_not_go_on_at_the_skills_own_question() -> None:
    """Where the skill would have the request wait, the user says they will not go on; the
    request comes at a question of the skill itself that every run asks: never one a skill
    run first asks too (the sign-in's policy number), nor one the prose keeps when the
    opening already answered it ("If they already told you what happened, … do not ask
    again")."""
    harbor = load_project(CORPUS / "harbor_mutual")
    behavior = next(
        b
        for b in plan_mantle(harbor, "file_claim", None).behaviors
        if b.facts.get("kind") == "escalation"
    )
    spec = behavior.facts["escalation"]
    assert spec["line"].startswith("Actually, I don't want to go on with this here. "), spec
    assert spec["step"] == "when_and_where", spec
    data = draft_mantle(DraftContext(harbor, "mantle", behavior))
    context = parse_fact_context(data["scenario"]["simulation_context"])
    assert [c.cue for c in context.cues] == ["when it happened and where"], context.cues
