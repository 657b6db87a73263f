"""Technician requests: the district IT team's queue of people to visit or call."""

import os

import httpx
from rasa.mantle.tools.decorator import ToolContext, tool

QUEUE_URL = os.environ.get("JUSD_QUEUE_URL", "https://queue.juniper-usd.example/api")


@tool(description="Ask the on-site IT technicians (people) to visit or call the staff member.")
async def request_technician(summary: str, priority: str = "normal", context: ToolContext = None):
    """Queue a visit or a call.

    Args:
        summary: One line for the technician.
        priority: normal or high.
    """
    async with httpx.AsyncClient(base_url=QUEUE_URL, timeout=5.0) as api:
        response = await api.post("/requests", json={"summary": summary, "priority": priority})
    if response.status_code >= 400:
        return {"queued": False}
    request = response.json()
    if context is not None:
        context.memory.set("callback_ref", request["ref"])
    return {"queued": True}
