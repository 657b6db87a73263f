"""A branch the user's own numbers take (every count at par: nothing to order) is an
outcome the skill goes on to, not a check that failed: its case is a happy path whose
criteria never say the agent cannot go ahead."""

from __future__ import annotations

from pathlib import Path

from agentflows.drafting import DraftContext
from agentflows.drafting.offline._mantle import draft_mantle
from agentflows.planning._mantle import plan_mantle
from evalcore.definitions import load_project

BREWLINE = Path(__file__).parent / "data" / "corpus" / "brewline_shifts"


def test_a_branch_the_numbers_take_is_no_failure() -> None:
    project = load_project(BREWLINE)
    plan = {b.case: b for b in plan_mantle(project, "inventory_count", None).behaviors}
    behavior = plan["all_good"]
    assert behavior.type == "happy_path"
    goals = draft_mantle(DraftContext(project, "mantle", behavior))["scenario"]["goals"]
    assert not any("cannot go ahead" in c for c in goals["criteria"])
    assert not any("come back positive" in c for c in goals["criteria"])
    assert "The agent does not go on to restock" in goals["criteria"]
    said = [a["bot_uttered"]["utter_name"] for a in goals["assertions"] if "bot_uttered" in a]
    assert said == ["utter_all_at_par"]
