"""The user of a hand-off case that writes a summary knows their own matter: a situation of
the topic the case chose, their booking's reference and the flights on it (the summary is to
carry "flight numbers").

Before: the user's only fact was "topic: medical"; asked what happened or which flight, the
simulated user had to invent both.
"""

from __future__ import annotations

import json
from pathlib import Path

from agentflows.drafting import DraftContext
from agentflows.drafting.offline._mantle import draft_mantle
from agentflows.planning import plan_source
from evalcore.definitions import load_project
from evalcore.simulator import parse_fact_context
from evalcore.testdata import REASONS, situation_for

AIRLINE = Path(__file__).parent / "data" / "corpus" / "skyway_air"


def test_a_handoff_user_knows_their_situation_booking_and_flights() -> None:
    project = load_project(AIRLINE)
    bookings = json.loads((AIRLINE / "data" / "bookings.json").read_text())
    seen = 0
    for behavior in plan_source(project, "mantle", "agent_handoff", None).behaviors:
        if behavior.type != "happy_path":
            continue
        data = draft_mantle(DraftContext(project, "mantle", behavior))
        text = data["scenario"]["simulation_context"]
        facts = {f.label: f.value for f in parse_fact_context(text).facts}
        topic = (behavior.facts.get("values") or {}).get("agent_handoff.topic")
        assert facts.get("what you need a person for") == situation_for(str(topic))
        booking = next(
            b
            for b in bookings
            for p in b["passengers"]
            if f"You are {p['first']} {p['last']}," in text
        )
        assert facts.get("booking reference") == booking["pnr"]
        flights = ", ".join(s["flight"] for s in booking["segments"])
        assert facts.get("flight numbers") == flights
        seen += 1
    assert seen


def test_a_topic_no_situation_names_gets_none() -> None:
    assert situation_for("other") is None
    assert situation_for("refund")


def _handoff_facts(project_name: str, skill: str) -> list[dict[str, str]]:
    """The facts of each case, the first message under "opening" (a details-up-front case
    says the matter there)."""
    project = load_project(AIRLINE.parent / project_name)
    out = []
    for behavior in plan_source(project, "mantle", skill, None).behaviors:
        if behavior.type in ("escalation", "edge_case", "happy_path"):
            data = draft_mantle(DraftContext(project, "mantle", behavior))
            context = parse_fact_context(data["scenario"]["simulation_context"])
            facts = {f.label: f.value for f in context.facts}
            if behavior.facts.get("kind") == "out_of_order":
                facts["opening"] = context.opening or ""
            out.append(facts)
    return out


def test_details_up_front_say_the_matter_they_are_for() -> None:
    """A details-up-front hand-off opens with the matter, not "ask Priya to sort it:
    today", whose "it" refers to nothing while the matter waits to be asked for."""
    cases = [c for c in _handoff_facts("northstar_exec", "ea_team_handoff") if "opening" in c]
    errands = next(r for r in REASONS if "ea" in r.topic).why
    assert cases
    for facts in cases:
        assert "what you need a person for" not in facts
        assert any(e in facts["opening"] for e in errands)


def test_with_only_a_time_chosen_the_request_is_of_the_skills_kind() -> None:
    """The assistants' hand-off chooses only when it is needed (`urgency`): the user asks
    an errand an executive's assistants do. A lab's safety hand-off chooses what the
    researcher needs (`concern`), which no line fits: no errand of another kind."""
    errands = next(r for r in REASONS if "ea" in r.topic).why
    cases = _handoff_facts("northstar_exec", "ea_team_handoff")
    assert cases
    held = [c.get("what you need a person for") or c["opening"] for c in cases]
    assert all(any(e in h for e in errands) for h in held)
    for facts in _handoff_facts("tidewater_core", "safety_officer"):
        assert "what you need a person for" not in facts
