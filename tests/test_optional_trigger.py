"""A detour or a hand-off never rides on a question the prose leaves to the agent ("you
may ask for a quick rating"): a correct agent may never ask it, so the trigger never comes."""

from __future__ import annotations

from pathlib import Path

from skill_model_fixtures import write_project
from test_detour_completes import FILES

from agentflows.planning import plan_source
from agentflows.planning._mantle_detours import optional_ask
from evalcore.definitions import load_project

GOODBYE = """\
---
name: Goodbye
description: >
  End the conversation politely when the driver says goodbye or that's all.
---

Thank the driver briefly.

If they seem done, you may ask for a quick thumbs up or thumbs down. Set `rating` to
thumbs_up or thumbs_down if they answer.

Wish them a good day in one short sentence.
"""

RATING = (
    "schema:\n  public:\n    rating:\n      type: categorical\n"
    "      enum_values: [thumbs_up, thumbs_down]\n      description: The driver's rating.\n"
    "      llm_settable: true\n"
)


def test_an_ask_after_a_may_sentence_is_optional() -> None:
    assert optional_ask(GOODBYE, "Set `rating` to thumbs_up or thumbs_down if they answer.")
    assert not optional_ask(GOODBYE, "Thank the driver briefly.")
    assert not optional_ask("Ask which depot suits them (set depot).", "Ask which depot")


def test_no_detour_rides_on_an_optional_question(tmp_path: Path) -> None:
    files = {
        **FILES,
        "skills/goodbye/skill.md": GOODBYE,
        "skills/goodbye/memory.yml": RATING,
    }
    project = load_project(write_project(tmp_path / "fleet", files))
    kinds = {b.facts.get("kind") for b in plan_source(project, "mantle", "goodbye", None).behaviors}
    assert "digression" not in kinds, kinds
    # the fleet's booking skill still gets its detour: its question is not optional
    booking = plan_source(project, "mantle", "book_slot", None).behaviors
    assert "digression" in {b.facts.get("kind") for b in booking}
