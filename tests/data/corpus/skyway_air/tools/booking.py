"""Booking lookup shared by every skill (imported by name). Reads the reservation snapshot in
data/bookings.json; the passenger must give the reference and their own last name."""

import json
from pathlib import Path

from rasa.mantle.tools.decorator import ToolContext, tool
from rasa.mantle.tools.result import ToolResult

BOOKINGS = Path(__file__).resolve().parents[1] / "data" / "bookings.json"
LOOKALIKE = str.maketrans({"0": "O", "1": "I", "5": "S"})


def load_booking(pnr: str) -> dict | None:
    wanted = pnr.strip().upper()
    for booking in json.loads(BOOKINGS.read_text()):
        if booking["pnr"] in (wanted, wanted.translate(LOOKALIKE)):
            return booking
    return None


@tool(description="Find a booking by reference and the passenger's last name.")
async def find_booking(pnr: str, last_name: str, context: ToolContext = None) -> ToolResult:
    """Match the booking and the passenger who is talking to us.

    Args:
        pnr: Booking reference, six characters like QX7LMB (case and 0/O mix-ups are forgiven).
        last_name: The passenger's own last name as on the ticket.
    """
    booking = load_booking(pnr)
    passenger = None
    if booking is not None:
        passenger = next(
            (p for p in booking["passengers"] if p["last"].lower() == last_name.strip().lower()),
            None,
        )
    if passenger is None:
        return ToolResult(
            llm_response={
                "found": False,
                "hint": "Do not say whether the reference or the name was wrong.",
            }
        )
    if context is not None:
        context.memory.set("project.pnr", booking["pnr"])
        context.memory.set("project.passenger_id", passenger["id"])
        context.memory.set("project.authenticated", True)
    return ToolResult(
        llm_response={
            "found": True,
            "first_name": passenger["first"],
            "passenger_count": len(booking["passengers"]),
            "segments": booking["segments"],
            "fare_family": booking["fare_family"],
        }
    )
