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
from agentflows.planning import plan_source
from evalcore.definitions import load_project

PARCEL = """\
---
name: Parcel help
description: Where to track a parcel, by the carrier that delivers it.
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
