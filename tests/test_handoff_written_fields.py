"""A text the hand-off skill has the agent write itself is never a fact the user is asked
for ("write a two-line summary of what happened so far")."""

from __future__ import annotations

from pathlib import Path

from evalcore.definitions import MemoryField
from evalcore.definitions.skill_model import written_by_agent

CORPUS = Path(__file__).resolve().parent / "data" / "corpus"


def _text(name: str, description: str = "") -> MemoryField:
    return MemoryField(name=name, type="text", description=description, namespace="handoff")


def test_a_field_the_agent_writes_is_told_apart_from_one_it_asks_for() -> None:
    summary = _text("summary", "Two lines for the agent.")
    written = "Set topic from what they need and write a two-line summary of what happened."
    assert written_by_agent(summary, written)
    request = _text("request_summary", "Two or three lines for the team.")
    assert written_by_agent(request, "Write request_summary in two or three lines.")
    # the user's own words: asked, not written
    assert not written_by_agent(summary, "Ask for a short summary of the problem.")
    assert not written_by_agent(_text("reason"), "Ask why they want a person (set reason).")
    # a flag is no text the agent composes
    flag = MemoryField(name="summary", type="bool", namespace="handoff")
    assert not written_by_agent(flag, "Write a summary.")


def test_a_handoff_case_gives_the_user_no_summary_to_say(tmp_path: Path) -> None:
    from skill_model_fixtures import generate_offline

    generate_offline(CORPUS / "skyway_air", ["agent_handoff"], tmp_path / "out")
    cases = list((tmp_path / "out").rglob("agent_handoff_*.yml"))
    assert cases
    for case in cases:
        text = case.read_text("utf-8")
        assert "- summary:" not in text, case.name
    rebooking = next(c for c in cases if c.name == "agent_handoff_rebooking_happy_path.yml")
    assert "- topic: rebooking" in rebooking.read_text("utf-8")  # the user's own need stays
