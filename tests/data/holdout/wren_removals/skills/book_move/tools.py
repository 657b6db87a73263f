"""Crew availability and bookings, through the dispatch system."""

import json
from pathlib import Path

from rasa.mantle.tools.decorator import ToolContext, tool
from rasa.mantle.tools.result import ToolResult

MOVES = Path(__file__).resolve().parents[2] / "data" / "moves.json"


@tool(description="Check whether a crew is free on a date.")
async def check_crew_availability(move_date: str, context: ToolContext = None) -> ToolResult:
    """Crew calendar.

    Args:
        move_date: DD/MM/YYYY.
    """
    available = not move_date.startswith("25/12")
    if context is not None:
        context.memory.set("crew_available", available)
    return ToolResult(llm_response={"available": available})


@tool(description="Reserve a crew for the move on the quote.")
async def reserve_crew(quote_id: str, move_date: str, context: ToolContext = None) -> ToolResult:
    """Book it.

    Args:
        quote_id: Q- and five digits.
        move_date: DD/MM/YYYY.
    """
    ref = "MV-" + quote_id[-4:]
    if context is not None:
        context.memory.set("move_ref", ref)
    return ToolResult(llm_response={"move_ref": ref})


@tool(description="Get a customer's booked move.")
async def get_move(customer_ref: str, context: ToolContext = None) -> ToolResult:
    """The booked move, if any.

    Args:
        customer_ref: WR- and five digits.
    """
    moves = [m for m in json.loads(MOVES.read_text()) if m["customer_ref"] == customer_ref]
    return ToolResult(llm_response={"moves": moves})
