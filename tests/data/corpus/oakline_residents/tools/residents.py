"""Resident lookups shared by every skill. Reads the property-management export in data/."""

import json
from pathlib import Path

from rasa.mantle.tools.decorator import ToolContext, tool
from rasa.mantle.tools.result import ToolResult

DATA = Path(__file__).resolve().parents[1] / "data"


@tool(description="The signed-in resident's own profile: unit, lease status, pets, autopay.")
async def get_resident(resident_id: str, context: ToolContext = None) -> ToolResult:
    """Profile of the resident in the conversation (never anyone else).

    Args:
        resident_id: R- followed by five digits, from project memory.
    """
    person = next(
        (
            r
            for r in json.loads((DATA / "residents.json").read_text())
            if r["resident_id"] == resident_id
        ),
        None,
    )
    if person is None:
        return ToolResult(llm_response={"found": False})
    return ToolResult(
        llm_response={
            "found": True,
            **{k: person[k] for k in ("unit", "property", "lease_holder", "pets", "autopay")},
        }
    )


@tool(description="Open and recent repair requests for the resident's unit.")
async def list_unit_work_orders(unit: str, context: ToolContext = None) -> ToolResult:
    """Work orders of one unit, newest first.

    Args:
        unit: Building code and unit, e.g. ALDER-412.
    """
    orders = [w for w in json.loads((DATA / "work_orders.json").read_text()) if w["unit"] == unit]
    return ToolResult(llm_response={"work_orders": orders[::-1]})
