"""Bookings: the diary export in data/bookings.csv, cancellations by API."""

import csv
import os
from pathlib import Path

import httpx
from rasa.mantle.tools.decorator import ToolContext, tool
from rasa.mantle.tools.result import ToolResult

BOOKINGS = Path(__file__).resolve().parents[2] / "data" / "bookings.csv"
PMS_URL = os.environ.get("TANSY_PMS_URL", "https://pms.tansy-vet.example/api/v1")


@tool(description="List a client's upcoming bookings.")
async def find_bookings(client_id: str, context: ToolContext = None) -> ToolResult:
    """Read the client's rows from the diary export.

    Args:
        client_id: Five digits.
    """
    with BOOKINGS.open(newline="") as handle:
        rows = [row for row in csv.DictReader(handle) if row["client_id"] == client_id]
    if context is not None:
        context.memory.set("upcoming", rows)
    return ToolResult(llm_response={"bookings": rows})


@tool(description="Cancel a booking in the diary.")
async def cancel_booking(booking_id: str, context: ToolContext = None) -> ToolResult:
    """Cancel the booking.

    Args:
        booking_id: B- followed by five digits.
    """
    async with httpx.AsyncClient(base_url=PMS_URL, timeout=5.0) as api:
        response = await api.delete(f"/bookings/{booking_id}")
    if context is not None:
        context.memory.set("cancelled", response.status_code < 400)
    return ToolResult(llm_response={"cancelled": response.status_code < 400})
