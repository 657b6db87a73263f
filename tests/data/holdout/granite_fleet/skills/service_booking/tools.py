"""Workshop bays at the depots: open slots and bookings."""

import csv
import os
from pathlib import Path

import httpx
from rasa.mantle.tools.decorator import ToolContext, tool
from rasa.mantle.tools.result import ToolResult

WORKSHOP_URL = os.environ.get("GF_WORKSHOP_URL", "https://workshop.granite-freight.example/api")
DATA = Path(__file__).resolve().parents[2] / "data"


@tool(description="List open workshop bay slots at a depot for the next seven days.")
async def find_bay_slots(depot: str, truck_unit: str, context: ToolContext = None) -> ToolResult:
    """Open slots within the depot's hours (data/depots.csv).

    Args:
        depot: north, south or harbor.
        truck_unit: Unit number, T- followed by three digits.
    """
    with (DATA / "depots.csv").open() as handle:
        row = next(r for r in csv.DictReader(handle) if r["depot"] == depot)
    async with httpx.AsyncClient(base_url=WORKSHOP_URL, timeout=8.0) as api:
        response = await api.get(
            "/slots", params={"depot": depot, "unit": truck_unit, "opens": row["opens"]}
        )
    slots = [s["start"] for s in response.json()] if response.status_code < 400 else []
    if context is not None:
        context.memory.set("open_slots", slots)
    return ToolResult(llm_response={"slots": slots, "address": row["address"]})


@tool(description="Book the truck into a workshop bay.")
async def book_bay(
    depot: str, service_kind: str, slot_start: str, context: ToolContext = None
) -> ToolResult:
    """Reserve the bay.

    Args:
        depot: north, south or harbor.
        service_kind: pm_service, inspection or repair.
        slot_start: Start of the slot, MM/DD/YYYY HH:MM.
    """
    async with httpx.AsyncClient(base_url=WORKSHOP_URL, timeout=8.0) as api:
        response = await api.post(
            "/bookings", json={"depot": depot, "service": service_kind, "start": slot_start}
        )
    if response.status_code >= 400:
        return ToolResult(llm_response={"booked": False})
    booking = response.json()
    if context is not None:
        context.memory.set("booking_ref", booking["ref"])
    return ToolResult(llm_response={"booked": True, "ref": booking["ref"]})
