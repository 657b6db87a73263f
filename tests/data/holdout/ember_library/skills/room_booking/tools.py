"""Room availability from the rooms list (data/rooms.csv) and bookings through the room diary."""

import csv
import os
from pathlib import Path

import httpx
from rasa.mantle.tools.decorator import ToolContext, tool
from rasa.mantle.tools.result import ToolResult

ROOMS = Path(__file__).resolve().parents[2] / "data" / "rooms.csv"
DIARY_URL = os.environ.get("EMBER_DIARY_URL", "https://diary.ember-libraries.example/api")


@tool(description="Find the free rooms of a kind at a branch on a day.")
async def find_free_rooms(
    branch: str, room_type: str, booking_date: str, people: int, context: ToolContext = None
) -> ToolResult:
    """Rooms big enough for the group.

    Args:
        branch: Three letters.
        room_type: study_room, meeting_room or maker_lab.
        booking_date: DD/MM/YYYY.
        people: The group size.
    """
    with ROOMS.open(newline="") as handle:
        rooms = [
            r
            for r in csv.DictReader(handle)
            if r["branch"] == branch.upper()
            and r["room_type"] == room_type
            and int(r["seats"]) >= people
        ]
    if context is not None:
        context.memory.set("rooms_found", bool(rooms))
    return ToolResult(llm_response={"rooms": rooms})


@tool(description="Book a room in the room diary.")
async def book_room(
    room_id: str, booking_date: str, people: int, context: ToolContext = None
) -> ToolResult:
    """Write the booking.

    Args:
        room_id: Like ASH-S1.
        booking_date: DD/MM/YYYY.
        people: The group size.
    """
    async with httpx.AsyncClient(base_url=DIARY_URL, timeout=5.0) as api:
        response = await api.post(
            "/bookings", json={"room": room_id, "date": booking_date, "people": people}
        )
    if response.status_code >= 400:
        return ToolResult(llm_response={"booked": False}, is_error=True)
    ref = response.json()["ref"]
    if context is not None:
        context.memory.set("booking_ref", ref)
    return ToolResult(llm_response={"booking_ref": ref})
