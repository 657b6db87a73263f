"""Instrument reservations in the facility's booking system and the training records."""

import json
import os
from pathlib import Path

import httpx
from rasa.mantle.tools.decorator import ToolContext, tool
from rasa.mantle.tools.result import ToolResult

BOOKING_URL = os.environ.get("CORE_BOOKING_URL", "https://booking.tidewater-core.example/api")
DATA = Path(__file__).resolve().parents[2] / "data"


@tool(description="Check the training records: may this researcher run the instrument alone?")
async def check_training(badge_id: str, instrument: str, context: ToolContext = None) -> ToolResult:
    """Read the researcher's sign-offs from data/researchers.json.

    Args:
        badge_id: Badge number, TU followed by seven digits.
        instrument: confocal, cryo_em, mass_spec or flow_cytometer.
    """
    people = json.loads((DATA / "researchers.json").read_text())
    person = next((p for p in people if p["badge_id"] == badge_id), None)
    trained = person is not None and instrument in person["trained_on"]
    if context is not None:
        context.memory.set("trained", trained)
    return ToolResult(llm_response={"trained": trained})


@tool(description="Reserve instrument time for the researcher's lab.")
async def reserve_instrument(
    instrument: str, session_date: str, hours: int, context: ToolContext = None
) -> ToolResult:
    """Create the reservation; the lab's budget code is taken from the user list.

    Args:
        instrument: confocal, cryo_em, mass_spec or flow_cytometer.
        session_date: Day of the session, MM/DD/YYYY.
        hours: Hours of instrument time.
    """
    async with httpx.AsyncClient(base_url=BOOKING_URL, timeout=6.0) as api:
        response = await api.post(
            "/reservations",
            json={"instrument": instrument, "date": session_date, "hours": hours},
        )
    if response.status_code >= 400:
        return ToolResult(llm_response={"reserved": False, "error": response.text[:200]})
    reservation = response.json()
    if context is not None:
        context.memory.set("reservation_id", reservation["number"])
    return ToolResult(llm_response={"reserved": True, "number": reservation["number"]})


@tool(description="Cancel one of the researcher's reservations.")
async def cancel_reservation(reservation_id: str, context: ToolContext = None) -> ToolResult:
    """Cancel a reservation the researcher's lab holds.

    Args:
        reservation_id: Reservation number, RSV- followed by six digits.
    """
    async with httpx.AsyncClient(base_url=BOOKING_URL, timeout=6.0) as api:
        response = await api.delete(f"/reservations/{reservation_id}")
    if response.status_code >= 400:
        return ToolResult(llm_response={"cancelled": False})
    if context is not None:
        context.memory.set("cancelled", True)
    return ToolResult(llm_response={"cancelled": True, "billed": response.json()["billed"]})


@tool(description="Add hours to the end of an existing reservation if the next slot is free.")
async def extend_reservation(
    reservation_id: str, extra_hours: int, context: ToolContext = None
) -> ToolResult:
    """Extend a reservation.

    Args:
        reservation_id: Reservation number, RSV- followed by six digits.
        extra_hours: Whole hours to add.
    """
    async with httpx.AsyncClient(base_url=BOOKING_URL, timeout=6.0) as api:
        response = await api.post(
            f"/reservations/{reservation_id}/extend", json={"hours": extra_hours}
        )
    if response.status_code >= 400:
        return ToolResult(llm_response={"extended": False, "next_free": None})
    if context is not None:
        context.memory.set("new_end_time", response.json()["ends"])
    return ToolResult(llm_response={"extended": True})
