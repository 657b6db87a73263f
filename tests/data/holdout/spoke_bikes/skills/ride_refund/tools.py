"""Rides from the trip export (data/rides.csv), the dock log and refunds by the payments API."""

import csv
import os
from pathlib import Path

import httpx
from rasa.mantle.tools.decorator import ToolContext, tool
from rasa.mantle.tools.result import ToolResult

RIDES = Path(__file__).resolve().parents[2] / "data" / "rides.csv"
PAYMENTS_URL = os.environ.get("SPOKE_PAYMENTS_URL", "https://pay.spoke-bikes.example/v1")


@tool(description="List a rider's recent rides with what each was charged.")
async def get_recent_rides(rider_id: str, context: ToolContext = None) -> ToolResult:
    """The last rides.

    Args:
        rider_id: R- and six digits.
    """
    with RIDES.open(newline="") as handle:
        rides = [r for r in csv.DictReader(handle) if r["rider_id"] == rider_id]
    if context is not None:
        context.memory.set("rides", rides)
    return ToolResult(llm_response={"rides": rides})


@tool(description="Compare a ride's charge with the dock's own log of when it locked.")
async def check_dock_log(ride_id: str, docked_at: str, context: ToolContext = None) -> ToolResult:
    """Minutes charged after the rider docked.

    Args:
        ride_id: RD- and six digits.
        docked_at: HH:MM.
    """
    hours, minutes = (int(p) for p in docked_at.split(":"))
    extra = max(0, 60 - minutes) if hours >= 17 else 0
    if context is not None:
        context.memory.set("overcharged_minutes", extra)
    return ToolResult(llm_response={"overcharged_minutes": extra})


@tool(description="Refund the overcharged minutes of a ride.")
async def refund_ride(ride_id: str, context: ToolContext = None) -> ToolResult:
    """Refund to the card on file.

    Args:
        ride_id: RD- and six digits.
    """
    async with httpx.AsyncClient(base_url=PAYMENTS_URL, timeout=5.0) as api:
        response = await api.post("/refunds", json={"ride": ride_id})
    if response.status_code >= 400:
        return ToolResult(llm_response={"refunded": False}, is_error=True)
    refund_id = response.json()["id"]
    if context is not None:
        context.memory.set("refund_id", refund_id)
    return ToolResult(llm_response={"refund_id": refund_id})
