"""A negative outcome's "explains in plain words why it cannot go ahead" only where the
skill does not keep back what failed: "never say which of the three details was wrong"
leaves nothing to explain beyond the skill's own response, and a judge could fail a correct
agent for saying less. Where no rule keeps it back, the criterion stays."""

from __future__ import annotations

from pathlib import Path

from agentflows.drafting import DraftContext
from agentflows.drafting.offline._mantle import draft_mantle
from agentflows.planning import plan_source
from evalcore.definitions import load_project

CORPUS = Path(__file__).parent / "data" / "corpus"
EXPLAINS = "The agent explains in plain words why it cannot go ahead"


def _criteria(project: str, skill: str, behavior: str) -> list[str]:
    loaded = load_project(CORPUS / project)
    planned = plan_source(loaded, "mantle", skill, None).behaviors
    data = draft_mantle(
        DraftContext(loaded, "mantle", next(b for b in planned if b.id == behavior))
    )
    return list(data["scenario"]["goals"].get("criteria") or [])


def test_no_explanation_asked_where_the_skill_keeps_back_what_failed() -> None:
    kept_back = _criteria(
        "harbor_mutual", "verify_policyholder", "verify_policyholder:count_attempt"
    )
    assert EXPLAINS not in kept_back, kept_back
    assert any("come back positive" in c for c in kept_back), kept_back
    told = _criteria("meadow_pharmacy", "verify_patient", "verify_patient:not_found")
    assert EXPLAINS in told, told
