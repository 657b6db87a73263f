"""A case that only answers, on a branch whose paragraph is a referral ("the leasing office
can let them in with ID"), is judged by that paragraph, not by a criterion that the agent
"answers instead of deflecting", which fails the agent that refers as the skill says."""

from __future__ import annotations

from pathlib import Path

import pytest
from skill_model_fixtures import INTEGRATIONS, write_project

from agentflows.drafting import DraftContext
from agentflows.drafting.offline._mantle import draft_mantle
from agentflows.drafting.offline._mantle_branch_says import branch_says
from agentflows.planning import plan_source
from evalcore.definitions import load_project

DOOR = """\
---
name: Building access
description: >
  Getting in: "I'm locked out", "I lost my key fob".
---

Handle building access for the resident.

if: not session.door.request
Ask what they need to get in.

if: session.door.request == "lockout"
During office hours the leasing office can let them in with ID. After hours, the on-call
lockout service costs $75. If it is below freezing, go to @skill.emergency.

if: session.door.request == "lost_fob"
Tell them the leasing office replaces fobs for $35.
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
        "      enum_values: [lockout, lost_fob]\n"
        "      description: What the resident needs to get in.\n      llm_settable: true\n"
    ),
    "skills/emergency/skill.md": EMERGENCY,
}

# two sentences each opening on when it holds: one applies at a time, so the criterion
# asks for whichever does, in its own words
SAID = (
    "When the request is lockout, the agent tells the customer whichever applies: during "
    "office hours the leasing office can let them in with ID, or after hours, the on-call "
    "lockout service costs $75"
)


@pytest.fixture(scope="module")
def tower(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return write_project(tmp_path_factory.mktemp("tower") / "tower", FILES)


def test_the_branch_paragraph_less_what_the_path_does_not_take(tower: Path) -> None:
    skill = load_project(tower).mantle.skills["door"]  # type: ignore[union-attr]
    assert branch_says(skill, {"door.request": "lockout"}, []) == SAID
    taken = branch_says(skill, {"door.request": "lockout"}, ["emergency"])
    assert taken is not None and "@skill.emergency" in taken
    assert branch_says(skill, {}, []) is None  # a paragraph that asks, on an empty field


def test_the_lockout_case_is_judged_by_its_paragraph(tower: Path) -> None:
    project = load_project(tower)
    behaviors = plan_source(project, "mantle", "door", None).behaviors
    lockout = next(
        b for b in behaviors if (b.facts.get("values") or {}).get("door.request") == "lockout"
    )
    criteria = draft_mantle(DraftContext(project, "mantle", lockout))["scenario"]["goals"][
        "criteria"
    ]
    said = SAID.replace("customer", "resident")
    assert SAID in criteria or said in criteria, criteria
    assert not any("deflecting" in c for c in criteria)
