"""Fault tickets and bike holds in the fleet system."""

import os

import httpx
from rasa.mantle.tools.decorator import ToolContext, tool
from rasa.mantle.tools.result import ToolResult

FLEET_URL = os.environ.get("SPOKE_FLEET_URL", "https://fleet.spoke-bikes.example/api")


@tool(description="Log a fault ticket for a bike.")
async def log_fault(
    bike_id: str, fault_type: str, location: str, context: ToolContext = None
) -> ToolResult:
    """Open the ticket.

    Args:
        bike_id: B- or E- and four digits.
        fault_type: brakes, chain, tyre, battery or other.
        location: Where the bike is.
    """
    async with httpx.AsyncClient(base_url=FLEET_URL, timeout=5.0) as api:
        response = await api.post(
            "/faults", json={"bike": bike_id, "type": fault_type, "at": location}
        )
    ticket = response.json()["ticket"]
    if context is not None:
        context.memory.set("ticket_id", ticket)
    return ToolResult(llm_response={"ticket_id": ticket})


@tool(description="Take a bike out of service so it cannot be hired.")
async def lock_bike_out(bike_id: str, context: ToolContext = None) -> ToolResult:
    """Hold the bike at its dock.

    Args:
        bike_id: B- or E- and four digits.
    """
    async with httpx.AsyncClient(base_url=FLEET_URL, timeout=5.0) as api:
        await api.post(f"/bikes/{bike_id}/hold")
    if context is not None:
        context.memory.set("locked_out", True)
    return ToolResult(llm_response={"held": True})
