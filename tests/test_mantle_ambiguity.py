"""An ambiguity case is for the clarification: its criteria ask the judge whether the agent
cleared up which of the two values the customer meant (in its own way: asking which one, or
what is going on), instead of picking one itself."""

from __future__ import annotations

from pathlib import Path

from agentflows.drafting import DraftContext
from agentflows.drafting.offline._mantle import draft_mantle
from agentflows.planning import plan_source
from evalcore.definitions import load_project

BANK = Path(__file__).resolve().parents[1] / "examples" / "bank"


def test_the_vague_answer_case_asks_the_judge_whether_the_agent_clarified() -> None:
    project = load_project(BANK)
    behaviors = plan_source(project, "mantle", "card_replace", None).behaviors
    (behavior,) = [b for b in behaviors if b.facts.get("kind") == "ambiguity"]
    spec = behavior.facts["ambiguity"]
    data = draft_mantle(DraftContext(project, "mantle", behavior))
    criteria = data["scenario"]["goals"]["criteria"]
    first, other = spec["between"]
    asked = [c for c in criteria if "has not stated or confirmed" in c]
    assert len(asked) == 1, criteria
    assert f"fits both {first} and {other}" in asked[0]
