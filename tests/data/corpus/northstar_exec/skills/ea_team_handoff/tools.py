"""Requests to the human EA desk (a shared queue in the firm's ticketing tool)."""

import os

import httpx
from rasa.mantle.tools.decorator import ToolContext, tool
from rasa.mantle.tools.result import ToolResult

EA_DESK_URL = os.environ.get("EA_DESK_URL", "https://desk.northstar-cp.example/api/queues/ea")


@tool(description="Open a request for the human EA team.")
async def create_ea_request(
    exec_id: str, summary: str, urgency: str = "this_week", context: ToolContext = None
) -> ToolResult:
    """Queue a request with context for Priya or Jordan.

    Args:
        exec_id: NS-### of the executive the request is for.
        summary: Two or three lines on what is needed.
        urgency: today or this_week.
    """
    async with httpx.AsyncClient(timeout=6.0) as api:
        response = await api.post(
            f"{EA_DESK_URL}/tickets", json={"for": exec_id, "body": summary, "due": urgency}
        )
    response.raise_for_status()
    if context is not None:
        context.memory.set("ea_ticket_id", response.json()["key"])
    return ToolResult(llm_response={"created": True, "assignee": response.json()["assignee"]})
