"""A collect step's question is not asserted where the path first runs a lookup on a service
outside the project ("Look for the receipt in their inbox first with @tool.search_inbox …
so they do not have to forward it"): what the lookup returns no definition holds, and a
receipt it finds lets a correct agent fill the amount and the category without asking."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from agentflows.drafting import DraftContext
from agentflows.drafting.offline._mantle import draft_mantle
from agentflows.planning import plan_source
from evalcore.definitions import load_project

CORPUS = Path(__file__).parent / "data" / "corpus"


def _assertions(project: str, skill: str, behavior: str) -> list[dict[str, Any]]:
    loaded = load_project(CORPUS / project)
    planned = plan_source(loaded, "mantle", skill, None).behaviors
    data = draft_mantle(
        DraftContext(loaded, "mantle", next(b for b in planned if b.id == behavior))
    )
    return list(data["scenario"]["goals"]["assertions"])


def test_no_question_asserted_after_an_outside_lookup() -> None:
    checks = _assertions("northstar_exec", "expenses", "expenses:ground_transport")
    said = [str(c["bot_uttered"]["utter_name"]) for c in checks if "bot_uttered" in c]
    assert not [s for s in said if s.startswith("utter_ask_")], said
    ran = [c["tool_executed"]["tool_name"] for c in checks if "tool_executed" in c]
    assert "search_inbox" in ran, ran  # the lookup itself is still asserted


def test_a_block_without_an_outside_lookup_still_asserts_its_questions() -> None:
    checks = _assertions("oakline_residents", "maintenance_request", "maintenance_request:pest")
    said = [str(c["bot_uttered"]["utter_name"]) for c in checks if "bot_uttered" in c]
    assert [s for s in said if s.startswith("utter_ask_")], said
