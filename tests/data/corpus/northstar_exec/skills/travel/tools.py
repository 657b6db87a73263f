"""Flight search and booking through the firm's travel agency API (corporate fares)."""

import os

import httpx
from rasa.mantle.tools.decorator import ToolContext, tool
from rasa.mantle.tools.result import ToolResult

AGENCY_URL = os.environ.get("TRAVEL_AGENCY_URL", "https://api.corptravel.example/v2")


def _agency() -> httpx.AsyncClient:
    return httpx.AsyncClient(
        base_url=AGENCY_URL,
        headers={"Authorization": f"Bearer {os.environ['TRAVEL_AGENCY_TOKEN']}"},
        timeout=20.0,
    )


@tool(description="Search round-trip flights arriving by a given time, best match first.")
async def search_flights(
    destination_city: str,
    depart_date: str,
    return_date: str,
    arrive_by: str,
    exec_id: str,
    context: ToolContext = None,
) -> ToolResult:
    """Corporate-fare search from the executive's home office.

    Args:
        destination_city: City name, e.g. Chicago.
        depart_date: MM/DD/YYYY.
        return_date: MM/DD/YYYY.
        arrive_by: Latest local arrival, HH:MM.
        exec_id: NS-### of the traveller.
    """
    async with _agency() as api:
        response = await api.post(
            "/air/search",
            json={
                "to": destination_city,
                "out": depart_date,
                "back": return_date,
                "arrive_by": arrive_by,
                "traveller": exec_id,
            },
        )
    response.raise_for_status()
    offers = response.json()["offers"][:4]
    return ToolResult(
        llm_response={"offers": offers, "in_policy": [o["id"] for o in offers if o["in_policy"]]}
    )


@tool(description="Book the chosen flight and a hotel for the nights of the trip.")
async def book_trip(
    flight_offer_id: str,
    check_in: str,
    check_out: str,
    hotel_chain: str = "",
    exec_id: str = "",
    context: ToolContext = None,
) -> ToolResult:
    """Ticket the flight and reserve the hotel in one booking.

    Args:
        flight_offer_id: off_ id from search_flights.
        check_in: Hotel check-in, MM/DD/YYYY; empty for a day trip.
        check_out: Hotel check-out, MM/DD/YYYY.
        hotel_chain: Preferred chain from the profile, e.g. Marriott.
        exec_id: NS-### of the traveller.
    """
    async with _agency() as api:
        response = await api.post(
            "/bookings",
            json={
                "offer": flight_offer_id,
                "hotel": {"in": check_in, "out": check_out, "chain": hotel_chain},
                "traveller": exec_id,
            },
        )
    if response.status_code >= 400:
        return ToolResult(llm_response={"booked": False, "error": response.json().get("error")})
    booking = response.json()
    if context is not None:
        context.memory.set("booking_ref", booking["record_locator"])
        context.memory.set("trip_total_usd", float(booking["total_usd"]))
    return ToolResult(llm_response={"booked": True, "record_locator": booking["record_locator"]})
