"""Dispatch tickets: the control room's queue of drivers waiting for a person."""

import os

import httpx
from rasa.mantle.tools.decorator import ToolContext, tool
from rasa.mantle.tools.result import ToolResult

DISPATCH_URL = os.environ.get("GF_DISPATCH_URL", "https://dispatch.granite-freight.example/api")


@tool(description="Open a ticket in the dispatch queue; a dispatcher (a person) calls the driver.")
async def open_dispatch_ticket(
    summary: str, urgent: bool = False, context: ToolContext = None
) -> ToolResult:
    """Queue the driver for a dispatcher.

    Args:
        summary: One line for the dispatcher.
        urgent: True when the driver or the truck is in an unsafe place.
    """
    async with httpx.AsyncClient(base_url=DISPATCH_URL, timeout=5.0) as api:
        response = await api.post("/tickets", json={"summary": summary, "urgent": urgent})
    if response.status_code >= 400:
        return ToolResult(llm_response={"opened": False})
    ticket = response.json()
    if context is not None:
        context.memory.set("ticket_id", ticket["id"])
    return ToolResult(llm_response={"opened": True})
