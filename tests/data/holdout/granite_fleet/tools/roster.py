"""The driver roster: who is on shift, with which truck and from which depot.

Records come from data/drivers.json, the roster export the dispatch system writes each night.
"""

import json
from pathlib import Path

from rasa.mantle.tools.decorator import ToolContext, tool
from rasa.mantle.tools.result import ToolResult

DATA = Path(__file__).resolve().parents[1] / "data"


@tool(description="Check a driver number and PIN against the roster.")
async def verify_driver(driver_id: str, pin: str, context: ToolContext = None) -> ToolResult:
    """Match the driver and load today's truck.

    Args:
        driver_id: Driver number, GF- followed by five digits (GF-20417).
        pin: The driver's four-digit PIN.
    """
    drivers = json.loads((DATA / "drivers.json").read_text())
    wanted = driver_id.strip().upper()
    driver = next((d for d in drivers if d["driver_id"] == wanted), None)
    if driver is None or driver["pin"] != pin.strip() or not driver["active"]:
        return ToolResult(llm_response={"verified": False})
    if context is not None:
        context.memory.set("project.driver_verified", True)
        context.memory.set("project.truck_unit", driver["truck_unit"])
    return ToolResult(llm_response={"verified": True, "first_name": driver["name"].split()[0]})
