"""The appointment diary: open appointments from data/slots.json, bookings by API."""

import json
import os
from pathlib import Path

import httpx
from rasa.mantle.tools.decorator import ToolContext, tool
from rasa.mantle.tools.result import ToolResult

SLOTS = Path(__file__).resolve().parents[2] / "data" / "slots.json"
PMS_URL = os.environ.get("TANSY_PMS_URL", "https://pms.tansy-vet.example/api/v1")


@tool(description="Find open appointments for a species and a reason.")
async def find_appointment_slots(
    species: str, visit_reason: str, context: ToolContext = None
) -> ToolResult:
    """Open appointments that see the species, soonest first.

    Args:
        species: dog, cat, rabbit, bird, horse, cattle, sheep or goat.
        visit_reason: vaccination, check_up, illness, dental, lameness or farm_call.
    """
    slots = [s for s in json.loads(SLOTS.read_text()) if species in s["species"]]
    if visit_reason == "dental":
        slots = [s for s in slots if s["minutes"] >= 40]
    offered = [
        {"slot_id": s["slot_id"], "date": s["date"], "time": s["time"], "vet": s["vet"]}
        for s in slots[:2]
    ]
    if context is not None:
        context.memory.set("offered", offered)
    return ToolResult(llm_response={"appointments": offered})


@tool(description="Book an appointment for a client's animal.")
async def book_visit(
    client_id: str,
    animal_name: str,
    species: str,
    visit_reason: str,
    slot_id: str,
    head_count: int = 1,
    context: ToolContext = None,
) -> ToolResult:
    """Write the booking to the diary.

    Args:
        client_id: Five digits.
        animal_name: The animal's name.
        species: The kind of animal.
        visit_reason: Why it is seen.
        slot_id: A- or F- followed by four digits.
        head_count: Animals on a farm call; 1 for a pet.
    """
    async with httpx.AsyncClient(base_url=PMS_URL, timeout=5.0) as api:
        response = await api.post(
            "/bookings",
            json={
                "client": client_id,
                "animal": animal_name,
                "species": species,
                "reason": visit_reason,
                "slot": slot_id,
                "head": head_count,
            },
        )
    if response.status_code >= 400:
        return ToolResult(llm_response={"booked": False})
    booking_id = response.json()["booking_id"]
    if context is not None:
        context.memory.set("booking_id", booking_id)
    return ToolResult(llm_response={"booked": True, "booking_id": booking_id})
