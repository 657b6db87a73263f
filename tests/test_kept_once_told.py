"""What the prose keeps once the user told it: "keep it and do not ask again" counts as
recording it early, so a case with no pinned first message asserts no question for it (the
simulated user may open with it), and a clause that forbids a question names nothing the
user is asked for."""

from __future__ import annotations

from test_only_what_definitions_fix import _checks, _goals

from agentflows.drafting.offline._mantle_facts import asked_clause
from evalcore.definitions import MemoryField
from evalcore.definitions.skill_model import recorded_early


def _field(name: str, description: str) -> MemoryField:
    return MemoryField(name=name, namespace="claim", type="text", description=description)


def test_keep_it_and_do_not_ask_again_records_it_early() -> None:
    field = _field("incident_description", "What happened, in the caller's words.")
    said = "If they already told you what happened, keep it and do not ask again."
    assert recorded_early(field, said)
    assert not recorded_early(field, "Keep it short and ask what happened.")


def test_a_question_the_prose_forbids_is_no_label() -> None:
    text = "Do not ask for a time or a place; the place is the home. Ask which room is hit."
    assert asked_clause(text) == "which room is hit"
    assert asked_clause("Never ask for the PIN.") is None


def test_a_kept_question_is_not_asserted_without_a_pinned_opening() -> None:
    # the bank's card_replace records why once the customer said it; its happy paths pin
    # no first message, so the simulated user may give the reason before any question
    goals = _goals("bank", "card_replace", "stolen")
    said = [b["utter_name"] for b in _checks(goals, "bot_uttered")]
    assert "utter_ask_replacement_reason" not in said, said
