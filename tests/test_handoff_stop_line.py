"""A hand-off case stops at the outcome it asserts: where the hand-off tool writes a
reference ("handoff_ticket_id"), the user waits for the ticket id, not for the first "I'll
connect you", which can come before the tool runs; a hand-off that calls no tool keeps the
hand-over as its stopping point.

Before: "Stop once the agent says it is passing you to someone." for every hand-off.
"""

from __future__ import annotations

from types import SimpleNamespace

from agentflows.drafting.offline._mantle_script import STOP_AFTER_HANDOFF, _handoff_stop
from agentflows.drafting.offline._mantle_script_state import Script
from agentflows.planning._mantle_walk_records import Event, Walk


def _stop(*handoff_events: Event) -> str:
    task = Walk("check_order", events=[Event("skill_activated", skill="check_order")])
    other = Walk("human_handoff", events=[Event("skill_activated", skill="human_handoff")])
    other.events.extend(handoff_events)
    script = SimpleNamespace(walk=task, other=other, handoff_skills=frozenset({"human_handoff"}))
    return _handoff_stop(Script.handoff_outcome.fget(script))  # type: ignore[attr-defined]


def test_a_ticket_the_hand_off_writes_is_what_the_user_waits_for() -> None:
    line = _stop(
        Event("tool", skill="human_handoff", tool="open_ticket"),
        Event("memory", skill="human_handoff", key="human_handoff.handoff_ticket_id"),
    )
    assert line == "the agent has given you the ticket id of your hand-off"


def test_a_hand_off_tool_without_a_reference_waits_for_the_confirmation() -> None:
    line = _stop(Event("tool", skill="human_handoff", tool="transfer"))
    assert line == "the agent confirms the hand-off has been made"


def test_a_hand_off_without_a_tool_stops_at_the_hand_over() -> None:
    assert _stop() == STOP_AFTER_HANDOFF
