"""A case whose path turns on a channel field fixes it: an escalation to a hand-off that
books a callback `if: session.project.channel != "phone"` (and transfers on the phone)
seeds a channel that takes the callback branch, rather than resting on an unset field a
deployed channel always fills.

Before: harbor_mutual's escalation cases asserted the callback booking with no channel
seeded; its failed identity check, which hands over with a block's `link:` step, still
gave the user a callback window and seeded no channel.
"""

from __future__ import annotations

from pathlib import Path

import yaml
from skill_model_fixtures import generate_offline

from evalcore.definitions import load_project

CORPUS = Path(__file__).parent / "data" / "corpus" / "harbor_mutual"


def _escalation(tmp_path: Path, skill: str) -> dict:
    generate_offline(CORPUS, [skill], tmp_path)
    path = next((tmp_path / "cases").rglob(f"{skill}_escalation.yml"))
    return yaml.safe_load(path.read_text())["scenario"]


def test_an_escalation_seeds_the_channel_its_hand_off_branch_needs(tmp_path: Path) -> None:
    scenario = _escalation(tmp_path, "verify_policyholder")
    slots = scenario["setup"]["initial_slots"]
    assert "project.channel" in slots
    channel = load_project(CORPUS).mantle.memory_names()["project.channel"]
    assert slots["project.channel"] in channel.enum_values
    # the branch the case asserts (a callback booked) is the one the seeded value takes
    assert slots["project.channel"] != "phone"
    asserted = [a for a in scenario["goals"]["assertions"] if "tool_executed" in a]
    assert any(a["tool_executed"]["tool_name"] == "schedule_callback" for a in asserted)


def test_a_path_that_links_to_the_hand_off_seeds_the_channel_too(tmp_path: Path) -> None:
    generate_offline(CORPUS, ["verify_policyholder"], tmp_path)
    path = next((tmp_path / "cases").rglob("verify_policyholder_count_attempt_sad_path.yml"))
    scenario = yaml.safe_load(path.read_text())["scenario"]
    # the case plays the hand-off's callback branch (the user has a window to give) ...
    assert "which window suits you" in scenario["simulation_context"]
    # ... so it seeds a channel that takes that branch
    assert scenario["setup"]["initial_slots"].get("project.channel") not in (None, "phone")
