"""An id the user picks from an outside list that marks what they can take: no assertion.

`list_open_shifts` asks a service outside the agent, "the tool marks which ones they can
take", and no data file holds an id of `open_shift_id`'s shape (`OPN-#####`): the list may
hold nothing this user can take, the case's user then stops, and a correct agent never
sets the id nor claims a shift. The happy path asserts the listing call and says the claim
as a conditional criterion (before: it asserted the claim, the id's write and a sequencing
that ended in the claim). A list that marks nothing stays as it was: the user picks the
first item read out, and the claim is asserted.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import yaml
from skill_model_fixtures import generate_offline, write_project
from test_data_sides import PICK_UP, PICK_UP_FILES, SHIFTS

MARKED = PICK_UP.replace(
    "read out date, time and position.",
    "read out date, time and position. Opening shifts need a certification; the tool marks "
    "which ones they can take.",
)


def _happy(tmp_path: Path, skill: str) -> list[dict[str, Any]]:
    files = {
        **PICK_UP_FILES,
        "skills/pick_up/skill.md": skill,
        "data/shifts.json": json.dumps(SHIFTS),
    }
    root = write_project(tmp_path / "p", files)
    generate_offline(root, ["pick_up"], tmp_path / "out")
    paths = sorted((tmp_path / "out" / "cases").rglob("*happy_path*.yml"))
    cases = [yaml.safe_load(p.read_text("utf-8"))["scenario"]["goals"] for p in paths]
    happy = [g for g in cases if "list_open_shifts" in json.dumps(g["assertions"])]
    assert happy, cases
    return happy


def test_a_pick_from_a_marked_outside_list_is_a_criterion(tmp_path: Path) -> None:
    for goals in _happy(tmp_path, MARKED):
        text = json.dumps(goals["assertions"])
        assert "claim_open_shift" not in text and "pick_up.open_shift_id" not in text, text
        assert any(
            "list_open_shifts lists" in c and "claim_open_shift" in c for c in goals["criteria"]
        ), goals["criteria"]


def test_a_pick_from_an_unmarked_list_stays_asserted(tmp_path: Path) -> None:
    for goals in _happy(tmp_path, PICK_UP):
        assert "claim_open_shift" in json.dumps(goals["assertions"]), goals
