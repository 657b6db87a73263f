"""Rebooking and delay vouchers through the reservation system (PSS) gateway."""

import os

import httpx
from rasa.mantle.tools.decorator import ToolContext, tool
from rasa.mantle.tools.result import ToolResult

PSS_URL = os.environ.get("PSS_GATEWAY_URL", "https://pss-gw.skyway.example/v1")


def _pss() -> httpx.AsyncClient:
    return httpx.AsyncClient(
        base_url=PSS_URL, headers={"X-Client": "va", "X-Key": os.environ["PSS_KEY"]}, timeout=15.0
    )


@tool(description="Move the booking from one flight to another and reissue the tickets.")
async def rebook(
    pnr: str,
    old_flight: str,
    new_flight: str,
    new_date: str = "",
    waive_fees: bool = False,
    context: ToolContext = None,
) -> ToolResult:
    """Rebook every passenger on the booking.

    Args:
        pnr: Booking reference like QX7LMB.
        old_flight: Flight being replaced, e.g. SK1182.
        new_flight: Chosen flight, e.g. SK2231.
        new_date: MM/DD/YYYY when not the same day; empty for the same day.
        waive_fees: True for involuntary changes (cancelled, missed connection, schedule
            change, delay of 3h or more).
    """
    async with _pss() as api:
        response = await api.post(
            f"/bookings/{pnr}/exchange",
            json={
                "from": old_flight,
                "to": new_flight,
                "date": new_date or None,
                "waiver": "IRROPS" if waive_fees else None,
            },
        )
    if response.status_code in (409, 422):
        return ToolResult(llm_response={"rebooked": False, "reason": response.json()["reason"]})
    response.raise_for_status()
    ticket = response.json()["tickets"][0]
    if context is not None:
        context.memory.set("new_ticket_number", ticket)
    return ToolResult(llm_response={"rebooked": True, "ticket": ticket})


@tool(description="Issue a meal voucher to the passengers of a flight delayed three hours or more.")
async def issue_meal_voucher(pnr: str, flight: str, context: ToolContext = None) -> ToolResult:
    """One $15 voucher per passenger, valid on the day of travel.

    Args:
        pnr: Booking reference.
        flight: The delayed flight, e.g. SK1182.
    """
    async with _pss() as api:
        response = await api.post(
            f"/bookings/{pnr}/vouchers", json={"flight": flight, "type": "meal", "amount_usd": 15}
        )
    response.raise_for_status()
    if context is not None:
        context.memory.set("voucher_code", response.json()["code"])
    return ToolResult(llm_response={"issued": True})
