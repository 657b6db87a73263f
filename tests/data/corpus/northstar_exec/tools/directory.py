"""Executive profiles and the travel/expense policy, shared by calendar, travel and expenses.

Profiles hold preferences the EA team maintains (seat, loyalty programmes, passport
expiry). Card numbers are stored as last four digits only."""

import json
from pathlib import Path

from rasa.mantle.tools.decorator import ToolContext, tool
from rasa.mantle.tools.result import ToolResult

DATA = Path(__file__).resolve().parents[1] / "data"


def profile(exec_id: str) -> dict | None:
    return next(
        (e for e in json.loads((DATA / "executives.json").read_text()) if e["exec_id"] == exec_id),
        None,
    )


@tool(description="Get the signed-in executive's travel preferences and passport expiry.")
async def get_exec_profile(exec_id: str, context: ToolContext = None) -> ToolResult:
    """Preferences of one executive (only ever the one signed in).

    Args:
        exec_id: Directory id like NS-004, from project memory.
    """
    found = profile(exec_id)
    if found is None:
        return ToolResult(llm_response={"found": False})
    keys = (
        "name",
        "title",
        "home_office",
        "time_zone",
        "seat",
        "airline_status",
        "hotel_chain",
        "passport_expiry",
    )
    return ToolResult(llm_response={"found": True, **{k: found[k] for k in keys}})


@tool(description="Read the firm's travel and expense policy.")
async def get_travel_policy(context: ToolContext = None) -> ToolResult:
    """Cabin rules, hotel caps by city, receipt thresholds and per-person caps."""
    return ToolResult(llm_response=json.loads((DATA / "travel_policy.json").read_text()))
