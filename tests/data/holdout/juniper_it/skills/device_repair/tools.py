"""Device warranty and repair tickets."""

import json
import os
from datetime import date
from pathlib import Path

import httpx
from rasa.mantle.tools.decorator import ToolContext, tool

SHOP_URL = os.environ.get("JUSD_SHOP_URL", "https://repairs.juniper-usd.example/api")
DATA = Path(__file__).resolve().parents[2] / "data"


@tool(description="Check whether a device is still under warranty.")
async def check_warranty(asset_tag: str, context: ToolContext = None):
    """Read the device from data/devices.json (warranty_until is YYYY-MM-DD).

    Args:
        asset_tag: JU- followed by six digits.
    """
    devices = json.loads((DATA / "devices.json").read_text())
    device = next((d for d in devices if d["asset_tag"] == asset_tag.strip().upper()), None)
    covered = device is not None and date.fromisoformat(device["warranty_until"]) >= date.today()
    if context is not None:
        context.memory.set("under_warranty", covered)
    return {"found": device is not None, "under_warranty": covered}


@tool(description="Open a repair ticket with the district repair shop.")
async def open_repair_ticket(asset_tag: str, symptom: str, context: ToolContext = None):
    """Create the ticket; the shop emails a pickup time.

    Args:
        asset_tag: JU- followed by six digits.
        symptom: What is wrong.
    """
    async with httpx.AsyncClient(base_url=SHOP_URL, timeout=8.0) as api:
        response = await api.post("/tickets", json={"asset": asset_tag, "symptom": symptom})
    if response.status_code >= 400:
        return {"opened": False}
    ticket = response.json()
    if context is not None:
        context.memory.set("ticket_id", ticket["id"])
    return {"opened": True, "id": ticket["id"]}
