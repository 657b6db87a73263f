"""A `sequencing` check chains only orders the definitions fix. A tool's `requires` orders
its keys before the call, but a key the path fills without asking (a bag tag the booking
already holds) has no place against the routing value: an agent may store the tag before
it sets the mode. The anchor before the call is the last key the user answers."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from agentflows.drafting import DraftContext
from agentflows.drafting.offline._mantle import draft_mantle
from agentflows.planning import plan_source
from evalcore.definitions import load_project

CORPUS = Path(__file__).parent / "data" / "corpus"


def _chain(project: str, skill: str, behavior: str) -> list[dict[str, Any]]:
    loaded = load_project(CORPUS / project)
    planned = plan_source(loaded, "mantle", skill, None).behaviors
    data = draft_mantle(
        DraftContext(loaded, "mantle", next(b for b in planned if b.id == behavior))
    )
    checks = data["scenario"]["goals"]["assertions"]
    return next(c["sequencing"] for c in checks if "sequencing" in c)


def test_a_key_filled_unasked_is_not_ordered_after_the_routing_value() -> None:
    chain = _chain("skyway_air", "baggage", "baggage:report_missing")
    written = [s["memory_was_set"] for s in chain if "memory_was_set" in s]
    assert "baggage.bag_tag" not in written, chain
    assert written[0] == "baggage.mode" and written[-1] == "baggage.report_id", chain
