"""The events calendar (data/events.json)."""

import json
from pathlib import Path

from rasa.mantle.tools.decorator import ToolContext, tool
from rasa.mantle.tools.result import ToolResult

EVENTS = Path(__file__).resolve().parents[2] / "data" / "events.json"


@tool(description="List the events at a branch.")
async def list_events(branch: str, context: ToolContext = None) -> ToolResult:
    """This month's events.

    Args:
        branch: Three letters.
    """
    events = [e for e in json.loads(EVENTS.read_text()) if e["branch"] == branch.upper()]
    if context is not None:
        context.memory.set("events", events)
    return ToolResult(llm_response={"events": events})
