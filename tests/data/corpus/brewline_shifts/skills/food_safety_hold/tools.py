"""Waste log for food discarded after a temperature problem."""

import os

import httpx
from rasa.mantle.tools.decorator import ToolContext, tool
from rasa.mantle.tools.result import ToolResult

WASTE_URL = os.environ.get("WASTE_LOG_URL", "https://ops.brewline.example/waste/v1")


@tool(description="Log food thrown out for temperature, item by item, so the store is credited.")
async def log_food_discard(
    store_id: str, items: list[dict], reason: str = "temperature", context: ToolContext = None
) -> ToolResult:
    """Record a temperature discard.

    Args:
        store_id: Store number like BL-0417.
        items: [{"item": "sweet cream", "quantity": 2, "unit": "pitcher"}, ...]
        reason: Always "temperature" from this skill.
    """
    async with httpx.AsyncClient(base_url=WASTE_URL, timeout=6.0) as api:
        response = await api.post(
            "/entries", json={"store": store_id, "items": items, "reason": reason}
        )
    response.raise_for_status()
    if context is not None:
        context.memory.set("discard_log_id", response.json()["id"])
    return ToolResult(llm_response={"logged": True, "credited_usd": response.json()["credit"]})
