"""The circumstances a skill's prose branches on reach the persona, fitting the case's path:
a lockout case that stays with the office's answer has a user who is safe and not freezing
("If it is below freezing or they are not safe, go to @skill.emergency"), and a fire case
has a user who is out once told to leave ("Do not ask any other questions until they say
they are out.")."""

from __future__ import annotations

from pathlib import Path

import pytest
from skill_model_fixtures import INTEGRATIONS, write_project

from agentflows.drafting import DraftContext
from agentflows.drafting.offline._mantle import draft_mantle
from agentflows.drafting.offline._mantle_circumstances import circumstance_facts
from agentflows.planning import plan_source
from evalcore.definitions import load_project

DOOR = """\
---
name: Building access
description: >
  Getting in: "I'm locked out", "I lost my key fob".
---

Handle building access for the resident.

if: session.door.request == "lockout"
The leasing office can let them in with ID. If it is below freezing or they are not safe,
go to @skill.emergency. If they need a person, go to @skill.emergency. If no technician is
free, go to @skill.emergency.

if: session.door.request == "fire"
Tell them to leave the building now. Do not ask any other questions until they say they
are out.
"""

EMERGENCY = """\
---
name: Emergency
description: Emergencies in the building, "water through the ceiling".
---

Tell them to call 911 if anyone is hurt.
"""

FILES: dict[str, str] = {
    "agent.yml": "name: Tower\npersona: You help residents.\n",
    "integrations.yml": INTEGRATIONS,
    "responses.yml": (
        "responses:\n  utter_anything_else:\n    - text: Anything else?\n"
        "  utter_goodbye:\n    - text: Goodbye!\n"
    ),
    "skills/door/skill.md": DOOR,
    "skills/door/memory.yml": (
        "schema:\n  public:\n    request:\n      type: categorical\n"
        "      enum_values: [lockout, fire]\n"
        "      description: What the resident needs.\n      llm_settable: true\n"
    ),
    "skills/emergency/skill.md": EMERGENCY,
}

UNMET = [("it is below freezing", False), ("they are safe", True)]
FACTS = ["- whether it is below freezing: no", "- whether you are safe: yes"]


@pytest.fixture(scope="module")
def tower(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return write_project(tmp_path_factory.mktemp("tower") / "tower", FILES)


def test_the_circumstances_fit_the_path(tower: Path) -> None:
    skill = load_project(tower).mantle.skills["door"]  # type: ignore[union-attr]
    assert circumstance_facts(skill, {"door.request": "lockout"}, []) == UNMET
    assert circumstance_facts(skill, {"door.request": "lockout"}, ["emergency"]) == []
    assert circumstance_facts(skill, {"door.request": "fire"}, []) == [("they are out", True)]
    assert circumstance_facts(
        skill.model_copy(update={"body": "If they do not know the code, go to @skill.emergency."}),
        {},
        [],
    ) == [("they know the code", True)]
    answer = "Ask whether they saw it. If they have, offer @skill.emergency."
    assert circumstance_facts(skill.model_copy(update={"body": answer}), {}, []) == []


LEAK = """\
---
name: Repair
description: Something is broken, "my sink is leaking".
---

Run @block.describe.

:::ordered_block id=describe
steps:
  - id: category
    collect: category
    utterance: utter_ask_category
    description: plumbing or other.
  - id: specifics
    instructions: |
      if: @memory.repair.category == "plumbing"
      Ask whether water is leaking now. If it is, ask them to close the valve, and if it is
      spreading, go to @skill.emergency.
    complete_when: session.repair.category
:::
"""


def test_a_block_steps_circumstances_fit_the_path(tower: Path) -> None:
    """A step's `if:` paragraph branches like the body's; of "If it is, ask them to close the
    valve, and if it is spreading, go to @skill.x" only the clause that hands off counts, and
    its `it` is what the question before asked about (water)."""
    leak = write_project(tower.parent / "leak", {**FILES, "skills/repair/skill.md": LEAK})
    skill = load_project(leak).mantle.skills["repair"]  # type: ignore[union-attr]
    assert circumstance_facts(skill, {"repair.category": "plumbing"}, []) == [
        ("water is spreading", False)
    ]
    assert circumstance_facts(skill, {"repair.category": "plumbing"}, ["emergency"]) == []
    assert circumstance_facts(skill, {"repair.category": "other"}, []) == []


def test_the_lockout_persona_knows_them(tower: Path) -> None:
    project = load_project(tower)
    behaviors = plan_source(project, "mantle", "door", None).behaviors
    lockout = next(
        b for b in behaviors if (b.facts.get("values") or {}).get("door.request") == "lockout"
    )
    context = draft_mantle(DraftContext(project, "mantle", lockout))["scenario"][
        "simulation_context"
    ]
    for line in FACTS:
        assert line in context
    assert "need a person" not in context  # a wish, not a circumstance
    assert "technician" not in context  # the service's to know, not the user's
