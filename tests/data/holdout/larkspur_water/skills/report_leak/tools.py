"""Crew work orders for leaks on the public side of the meter."""

import os

import httpx
from rasa.mantle.tools.decorator import ToolContext, tool
from rasa.mantle.tools.result import ToolResult

CREW_URL = os.environ.get("LW_CREW_URL", "https://crews.larkspur-water.example/api")


@tool(description="Open a work order for a crew to fix a leak on the street or at a meter.")
async def create_work_order(
    address: str, location: str, priority: str = "normal", context: ToolContext = None
) -> ToolResult:
    """Queue a crew.

    Args:
        address: Street address or cross street.
        location: street or meter_box.
        priority: normal or emergency.
    """
    async with httpx.AsyncClient(base_url=CREW_URL, timeout=6.0) as api:
        response = await api.post(
            "/work-orders", json={"address": address, "location": location, "priority": priority}
        )
    if response.status_code >= 400:
        return ToolResult(llm_response={"created": False})
    order = response.json()
    if context is not None:
        context.memory.set("work_order_id", order["id"])
    return ToolResult(llm_response={"created": True, "id": order["id"]})
