"""A skill a block step starts (`call: check_member`) is activated by that step, not by its
description: the user asked for the other skill, so the case's comment cites the step."""

from __future__ import annotations

from pathlib import Path

from skill_model_fixtures import INTEGRATIONS, write_project

from evalcore.definitions import load_project
from evalcore.dialects.mantle._justify import judge_case

BOOK = """\
---
name: Book a class
description: Book a place in a fitness class.
---

Book one class for the checked member.

:::ordered_block id=booking
steps:
  - id: identify
    call: check_member
  - id: pick
    collect: class_name
    description: the class they want.
:::
"""

CHECK = """\
---
name: Check the member
description: Find the member by card number.
---

Ask for the card number and set `card_number`.
"""


def test_a_skill_a_block_step_calls_is_cited_at_that_step(tmp_path: Path) -> None:
    files = {
        "agent.yml": "name: Gym desk\npersona: You help members.\n",
        "integrations.yml": INTEGRATIONS,
        "skills/book_class/skill.md": BOOK,
        "skills/book_class/memory.yml": "schema:\n  public:\n    class_name:\n      type: text\n",
        "skills/check_member/skill.md": CHECK,
        "skills/check_member/memory.yml": "schema:\n  public:\n    card_number:\n"
        "      type: text\n",
    }
    project = load_project(write_project(tmp_path / "gym", files))
    data = {
        "scenario": {
            "name": "Book",
            "type": "happy_path",
            "simulation_context": 'You are Ann.\nOpen with: "Book me into spin."\n',
            "goals": {
                "assertions": [
                    {"skill_activated": {"skill_id": "book_class"}},
                    {"skill_activated": {"skill_id": "check_member"}},
                ],
                "criteria": [],
            },
        }
    }
    cited = {j.path: j.justification for j in judge_case(data, project)}
    own = cited["/scenario/goals/assertions/0"]
    called = cited["/scenario/goals/assertions/1"]
    assert own is not None and "routing" in own.element
    assert called is not None and called.file == "skills/book_class/skill.md"
    assert called.element == "step identify: call check_member"
