"""Live station counts (data/stations.json is the nightly snapshot)."""

import json
from pathlib import Path

from rasa.mantle.tools.decorator import ToolContext, tool
from rasa.mantle.tools.result import ToolResult

STATIONS = Path(__file__).resolve().parents[2] / "data" / "stations.json"


@tool(description="Get the bikes and free docks at a station.")
async def get_station(station: str, context: ToolContext = None) -> ToolResult:
    """One station's counts.

    Args:
        station: The station's name.
    """
    found = [s for s in json.loads(STATIONS.read_text()) if s["station"] == station]
    return ToolResult(llm_response={"station": found[0] if found else None})
