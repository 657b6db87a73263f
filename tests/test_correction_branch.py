"""A correction case on a block that branches on the corrected field asserts the branch the
right value reaches (the block's completion at its step, the response that branch says) and
never the response of the branch the wrong value would have taken."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from skill_model_fixtures import INTEGRATIONS, write_project

from agentflows.drafting import DraftContext
from agentflows.drafting.offline._mantle import draft_mantle
from agentflows.drafting.offline._mantle_after import branch_responses
from agentflows.planning import plan_source
from evalcore.definitions import load_project

PARCEL = """\
---
name: Parcel help
description: Where to track a parcel, by the carrier that delivers it.
utter:
  - utter_rapid_hours:
      when: session.parcel_help.carrier == "rapid"
  - utter_northpost_hours:
      when: session.parcel_help.carrier == "northpost"
---

:::ordered_block id=main
steps:
  - id: ask_carrier
    collect: carrier
    utterance: utter_ask_carrier
    next:
      - if: session.parcel_help.carrier == "rapid"
        then: answer_rapid
      - if: session.parcel_help.carrier == "northpost"
        then: answer_northpost
      - else: answer_other
  - id: answer_rapid
    action: utter_track_rapid
    next: END
  - id: answer_northpost
    action: utter_track_northpost
    next: END
  - id: answer_other
    action: utter_track_other
    next: END
:::
"""

FILES: dict[str, str] = {
    "agent.yml": "name: Parcel desk\npersona: You help people find their parcels.\n",
    "integrations.yml": INTEGRATIONS,
    "memory.yml": "caller_phone:\n  type: text\n  seed: true\n",
    "skills/parcel_help/skill.md": PARCEL,
    "skills/parcel_help/memory.yml": (
        "schema:\n  public:\n    carrier:\n      type: categorical\n"
        "      enum_values: [rapid, northpost, other]\n"
        "      description: The carrier that delivers the parcel.\n"
    ),
    "skills/parcel_help/responses.yml": (
        "responses:\n"
        "  utter_ask_carrier:\n    - text: Which carrier delivers it?\n"
        "  utter_track_rapid:\n    - text: Track it on the Rapid site.\n"
        "  utter_track_northpost:\n    - text: Track it on the Northpost site.\n"
        "  utter_track_other:\n    - text: Ask the sender for the tracking link.\n"
        "  utter_rapid_hours:\n    - text: Rapid delivers until 8pm.\n"
        "  utter_northpost_hours:\n    - text: Northpost delivers until 6pm.\n"
    ),
}


@pytest.fixture(scope="module")
def parcel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return write_project(tmp_path_factory.mktemp("parcel") / "parcel", FILES)


def _correction(root: Path) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    project = load_project(root)
    behaviors = plan_source(project, "mantle", "parcel_help", None).behaviors
    case = next(b for b in behaviors if b.facts.get("kind") == "correction")
    data = draft_mantle(DraftContext(project, "mantle", case))
    return case.facts["correction"], data["scenario"]["goals"]["assertions"]


def test_a_correction_asserts_the_branch_it_reaches_and_not_the_wrong_one(parcel: Path) -> None:
    spec, assertions = _correction(parcel)
    right, wrong = spec["to"], spec["from"]
    step = {"rapid": "answer_rapid", "northpost": "answer_northpost"}.get(right, "answer_other")
    said = {"rapid": "utter_track_rapid", "northpost": "utter_track_northpost"}
    assert {
        "ordered_block_completed": {"skill_id": "parcel_help", "block_id": "main", "step_id": step}
    } in assertions
    assert {"bot_uttered": {"utter_name": said.get(right, "utter_track_other")}} in assertions
    if spec["mode"] != "next_turn":
        wrong_name = said.get(wrong, "utter_track_other")
        assert {"bot_did_not_utter": {"utter_name": wrong_name}} in assertions
        # the runtime's `utter: when:` rule of the wrong value never fires either
        hours = {"rapid": "utter_rapid_hours", "northpost": "utter_northpost_hours"}
        if wrong in hours:
            assert {"bot_did_not_utter": {"utter_name": hours[wrong]}} in assertions
    if right in {"rapid": 1, "northpost": 1}:
        name = "utter_rapid_hours" if right == "rapid" else "utter_northpost_hours"
        assert {"bot_uttered": {"utter_name": name}} in assertions


SWAP = """\
---
name: Swap a meter
description: Order a new electricity meter for the home.
complete_when:
  condition: session.swap_meter.meter_order
---

Ask why they want a new meter and set `reason`. Then call @tool.order_meter.
"""

SWAP_TOOLS = '''\
from rasa.mantle.tools.decorator import ToolContext, tool


@tool(description="Order a new meter.")
async def order_meter(context: ToolContext = None):
    """Order it."""
    context.memory.set("meter_order", "MO-1")
    return {"ok": True}
'''


def test_a_correction_still_asserts_the_task_the_skill_exists_for(tmp_path: Path) -> None:
    """The corrected value feeds no tool here: the order the skill places is still what
    shows the correction did not derail it."""
    files = {
        **FILES,
        "skills/swap_meter/skill.md": SWAP,
        "skills/swap_meter/tools.py": SWAP_TOOLS,
        "skills/swap_meter/memory.yml": (
            "schema:\n  public:\n    reason:\n      type: categorical\n"
            "      enum_values: [broken, moving]\n      description: Why a new meter.\n"
            "      llm_settable: true\n    meter_order:\n      type: text\n"
        ),
    }
    project = load_project(write_project(tmp_path / "home", files))
    behaviors = plan_source(project, "mantle", "swap_meter", None).behaviors
    case = next(b for b in behaviors if b.facts.get("kind") == "correction")
    assertions = draft_mantle(DraftContext(project, "mantle", case))["scenario"]["goals"]
    ran = [a["tool_executed"] for a in assertions["assertions"] if "tool_executed" in a]
    assert [(t["tool_name"], t["is_error"]) for t in ran] == [("order_meter", False)]


def test_a_loop_of_steps_without_a_wait_ends_the_branch_walk(tmp_path: Path) -> None:
    """`noop` steps that lead back to each other say nothing and never end: the walk of the
    wrong branch stops at the first step it meets again."""
    looped = PARCEL.replace(
        "      - else: answer_other\n",
        '      - if: session.parcel_help.carrier == "other"\n        then: hold\n'
        "      - else: answer_other\n"
        "  - id: hold\n    noop: true\n    next: wait_more\n"
        "  - id: wait_more\n    noop: true\n    next: hold\n",
    )
    files = {**FILES, "skills/parcel_help/skill.md": looped}
    project = load_project(write_project(tmp_path / "p", files))
    assert project.mantle is not None
    skill = project.mantle.skills["parcel_help"]
    memory = {"parcel_help.carrier": "other"}
    assert branch_responses(project.mantle, skill, "parcel_help.carrier", memory) == []
