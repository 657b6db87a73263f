"""Known outages, from the crews' board (data/outages.json)."""

import json
from pathlib import Path

from rasa.mantle.tools.decorator import ToolContext, tool
from rasa.mantle.tools.result import ToolResult

DATA = Path(__file__).resolve().parents[2] / "data"


@tool(description="List the known outages in a ZIP code, with what the crew said about timing.")
async def check_outages(zip_code: str, context: ToolContext = None) -> ToolResult:
    """Read data/outages.json.

    Args:
        zip_code: Five digits.
    """
    outages = json.loads((DATA / "outages.json").read_text())
    here = [o for o in outages if o["zip"] == zip_code.strip()]
    return ToolResult(llm_response={"outages": here})
