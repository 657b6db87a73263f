"""A details-up-front case of an emergency skill opens the way a person in one speaks
("Please help, it's an emergency: fire!"), and what the prose has the agent wait for the
user to say once told what to do ("Do not ask any other questions until they say they are
out") the user says on the agent's next turn, unasked."""

from __future__ import annotations

from pathlib import Path

from agentflows.drafting import DraftContext
from agentflows.drafting.offline._mantle import draft_mantle
from agentflows.planning._mantle import plan_mantle
from evalcore.definitions import load_project
from evalcore.simulator import parse_fact_context

CORPUS = Path(__file__).resolve().parent / "data" / "corpus"


def test_an_emergency_given_up_front_sounds_urgent_and_says_it_is_out() -> None:
    project = load_project(CORPUS / "oakline_residents")
    behavior = next(
        b
        for b in plan_mantle(project, "emergency_line", None).behaviors
        if b.facts.get("kind") == "out_of_order"
    )
    data = draft_mantle(DraftContext(project, "mantle", behavior))
    context = parse_fact_context(data["scenario"]["simulation_context"])
    assert context.opening is not None
    assert context.opening.startswith("Please help, it's an emergency: "), context.opening
    assert context.opening.endswith("!"), context.opening
    assert [(f.after, f.line) for f in context.follow_ups] == [
        (context.opening, "OK, I'm out now.")
    ], context.follow_ups
