"""The inspection calendar: open windows from data/inspections/slots.csv, bookings by API."""

import csv
import os
from pathlib import Path

import httpx
from rasa.mantle.tools.decorator import ToolContext, tool
from rasa.mantle.tools.result import ToolResult

SLOTS = Path(__file__).resolve().parents[2] / "data" / "inspections" / "slots.csv"
CALENDAR_URL = os.environ.get("MARLOW_CALENDAR_URL", "https://inspections.marlow-city.example/api")


@tool(description="List open inspection windows for a permit and inspection type.")
async def open_inspection_slots(
    permit_number: str, inspection_type: str, context: ToolContext = None
) -> ToolResult:
    """Read the open windows.

    Args:
        permit_number: BP-, the year and a five-digit serial.
        inspection_type: footing, framing, electrical_rough, plumbing_rough, insulation or final.
    """
    with SLOTS.open(newline="") as handle:
        slots = [
            {"slot_id": row["slot_id"], "date": row["date"], "window": row["window"]}
            for row in csv.DictReader(handle)
        ]
    if context is not None:
        context.memory.set("open_slots", slots)
    return ToolResult(llm_response={"slots": slots})


@tool(description="Book an inspection window for a permit.")
async def book_inspection(
    permit_number: str, inspection_type: str, slot_id: str, context: ToolContext = None
) -> ToolResult:
    """Book the window on the inspection calendar.

    Args:
        permit_number: BP-, the year and a five-digit serial.
        inspection_type: The inspection the work is ready for.
        slot_id: IS- followed by four digits.
    """
    async with httpx.AsyncClient(base_url=CALENDAR_URL, timeout=5.0) as api:
        response = await api.post(
            "/bookings",
            json={"permit": permit_number, "type": inspection_type, "slot": slot_id},
        )
    if response.status_code >= 400:
        return ToolResult(llm_response={"booked": False})
    booking = response.json()
    if context is not None:
        context.memory.set("booking_id", booking["id"])
    return ToolResult(llm_response={"booked": True, "booking_id": booking["id"]})


@tool(description="Cancel an inspection booking.")
async def cancel_inspection(booking_id: str, context: ToolContext = None) -> ToolResult:
    """Cancel the booking; a same-day cancellation is charged a re-inspection fee.

    Args:
        booking_id: IB- followed by six digits.
    """
    async with httpx.AsyncClient(base_url=CALENDAR_URL, timeout=5.0) as api:
        response = await api.delete(f"/bookings/{booking_id}")
    cancelled = response.status_code < 400
    if context is not None:
        context.memory.set("cancelled", cancelled)
    return ToolResult(llm_response={"cancelled": cancelled})
