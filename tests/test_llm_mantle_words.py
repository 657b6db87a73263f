"""Merging a model's Mantle context into the planned fact sheet never loses a fact."""

from __future__ import annotations

from agentflows.drafting.llm._mantle import merge_context
from evalcore.simulator import parse_fact_context

PLANNED = (
    "You are Dana Okafor, a fleet manager, brisk.\n"
    "You want to file a claim for hail damage.\n"
    "What you know (share each only when the agent asks):\n"
    "- policy number: PL-20931\n"
    "- when it happened: 03/14/2026\n"
    'When the agent asks for the date the first time, say instead: "Last Tuesday, no, the 14th."\n'
    "When the agent reads the details back and asks you to confirm, decline.\n"
    "Stop once the agent has told you the outcome.\n"
)


def test_a_reworded_context_that_keeps_every_fact_and_line_is_used() -> None:
    written = PLANNED.replace("brisk", "short on time").replace("policy number", "policy")
    assert merge_context(PLANNED, written) == written + "\n"


def test_a_context_that_drops_a_fact_keeps_the_plan_with_the_models_persona() -> None:
    written = "You are Sam Reyes, a retired teacher, chatty. You want to file a claim."
    merged = parse_fact_context(merge_context(PLANNED, written))
    planned = parse_fact_context(PLANNED)
    assert merged.persona == "Sam Reyes, a retired teacher, chatty"
    assert merged.facts == planned.facts and merged.cues == planned.cues
    assert merged.confirm == "decline"


def test_a_context_without_a_persona_keeps_the_plan_as_it_is() -> None:
    assert merge_context(PLANNED, '1. Say: "hello"') == parse_fact_context(PLANNED).render()
