"""Baggage reports (WorldTracer-style file references) through the baggage service."""

import json
import os
from pathlib import Path

import httpx
from rasa.mantle.tools.decorator import ToolContext, tool
from rasa.mantle.tools.result import ToolResult

TAGS = Path(__file__).resolve().parents[2] / "data" / "bag_tags.json"
BAGGAGE_URL = os.environ.get("BAGGAGE_API_URL", "https://baggage.skyway.example/api")


def _tag_on_booking(tag: str, pnr: str) -> bool:
    return any(t["tag"] == tag and t["pnr"] == pnr for t in json.loads(TAGS.read_text()))


@tool(description="Report a checked bag as missing and set where to deliver it.")
async def file_missing_bag_report(
    pnr: str, bag_tag: str, delivery_address: str, bag_description: str, context: ToolContext = None
) -> ToolResult:
    """Open a missing-bag file.

    Args:
        pnr: Booking reference.
        bag_tag: SK + six digits, must belong to this booking.
        delivery_address: Full address with postcode.
        bag_description: Colour, type and brand.
    """
    if not _tag_on_booking(bag_tag, pnr):
        return ToolResult(llm_response={"filed": False, "error": "tag_not_on_booking"})
    async with httpx.AsyncClient(base_url=BAGGAGE_URL, timeout=10.0) as api:
        response = await api.post(
            "/files",
            json={
                "type": "AHL",
                "tag": bag_tag,
                "address": delivery_address,
                "desc": bag_description,
            },
        )
    if response.status_code >= 400:
        return ToolResult(llm_response={"filed": False})
    if context is not None:
        context.memory.set("report_id", response.json()["reference"])
    return ToolResult(llm_response={"filed": True})


@tool(description="Report damage to a checked bag (within 7 days of arrival).")
async def file_damage_report(
    pnr: str, bag_tag: str, damage_type: str, photo_url: str = "", context: ToolContext = None
) -> ToolResult:
    """Open a damage file.

    Args:
        pnr: Booking reference.
        bag_tag: SK + six digits.
        damage_type: wheel, handle, zipper, shell_crack, tear, water or contents.
        photo_url: Link of an uploaded photo, if the passenger sent one.
    """
    async with httpx.AsyncClient(base_url=BAGGAGE_URL, timeout=10.0) as api:
        response = await api.post(
            "/files",
            json={"type": "DPR", "tag": bag_tag, "damage": damage_type, "photo": photo_url or None},
        )
    if response.status_code >= 400:
        return ToolResult(llm_response={"filed": False, "error": response.json().get("code")})
    if context is not None:
        context.memory.set("report_id", response.json()["reference"])
    return ToolResult(llm_response={"filed": True})


@tool(description="Change the delivery address on an open missing-bag report.")
async def update_delivery_address(
    report_id: str, delivery_address: str, context: ToolContext = None
) -> ToolResult:
    """Redirect the courier.

    Args:
        report_id: Report reference like BOSSK12345.
        delivery_address: New address with postcode.
    """
    async with httpx.AsyncClient(base_url=BAGGAGE_URL, timeout=10.0) as api:
        response = await api.patch(f"/files/{report_id}", json={"address": delivery_address})
    response.raise_for_status()
    return ToolResult(llm_response={"updated": True})
