"""Quotes and surveys."""

import os

import httpx
from rasa.mantle.tools.decorator import ToolContext, tool
from rasa.mantle.tools.result import ToolResult

PRICING_URL = os.environ.get("WREN_PRICING_URL", "https://pricing.wren-removals.example")


@tool(description="Price bands for typical moves, without any customer details.")
async def price_guide(context: ToolContext = None) -> ToolResult:
    """The public price bands."""
    return ToolResult(
        llm_response={
            "bands": ["1-2 rooms: from £380", "3-4 rooms: from £790", "5-6 rooms: from £1,350"]
        }
    )


@tool(description="Estimate the price of a move from its size and distance.")
async def estimate_move(
    rooms: int, distance_miles: int, needs_packing: bool = False, context: ToolContext = None
) -> ToolResult:
    """Price the move.

    Args:
        rooms: Rooms to move.
        distance_miles: Miles between the addresses.
        needs_packing: Whether the crew packs.
    """
    async with httpx.AsyncClient(base_url=PRICING_URL, timeout=5.0) as api:
        response = await api.post(
            "/estimate",
            json={"rooms": rooms, "miles": distance_miles, "packing": needs_packing},
        )
    response.raise_for_status()
    body = response.json()
    if context is not None:
        context.memory.set("quote_id", body["quote_id"])
        context.memory.set("price_gbp", body["price_gbp"])
    return ToolResult(llm_response={"quote_id": body["quote_id"], "price_gbp": body["price_gbp"]})


@tool(description="Book a free survey visit for a large move.")
async def book_survey(rooms: int, context: ToolContext = None) -> ToolResult:
    """Ask a surveyor to call.

    Args:
        rooms: Rooms to move.
    """
    async with httpx.AsyncClient(base_url=PRICING_URL, timeout=5.0) as api:
        response = await api.post("/surveys", json={"rooms": rooms})
    response.raise_for_status()
    ref = response.json()["survey_ref"]
    if context is not None:
        context.memory.set("survey_ref", ref)
    return ToolResult(llm_response={"survey_ref": ref})
