"""Work orders in the maintenance system (the same queue the technicians' app reads)."""

import os

import httpx
from rasa.mantle.tools.decorator import ToolContext, tool
from rasa.mantle.tools.result import ToolResult

MAINTENANCE_URL = os.environ.get("MAINTENANCE_API_URL", "https://maint.oakline-res.example/api/v1")


@tool(description="Create a work order for the resident's unit and get a visit window.")
async def submit_work_order(
    unit: str,
    category: str,
    problem_description: str,
    permission_to_enter: bool,
    has_pets: bool = False,
    active_leak: bool = False,
    indoor_temp_f: int | None = None,
    context: ToolContext = None,
) -> ToolResult:
    """File a routine repair.

    Args:
        unit: Building code and unit, e.g. ALDER-412.
        category: plumbing, electrical, appliance, heating_cooling, pest, lock_door or other.
        problem_description: The resident's description.
        permission_to_enter: True if maintenance may enter when nobody is home.
        has_pets: True when a pet lives in the unit.
        active_leak: Plumbing only.
        indoor_temp_f: Heating only, the thermostat reading.
    """
    payload = {
        "unit": unit,
        "category": category,
        "description": problem_description,
        "pte": permission_to_enter,
        "pets": has_pets,
        "flags": {"active_leak": active_leak, "indoor_temp_f": indoor_temp_f},
    }
    async with httpx.AsyncClient(base_url=MAINTENANCE_URL, timeout=8.0) as api:
        response = await api.post("/work-orders", json=payload)
    if response.status_code >= 400:
        return ToolResult(llm_response={"created": False})
    order = response.json()
    if context is not None:
        context.memory.set("work_order_id", order["number"])
        context.memory.set("visit_window", order["window"])
    return ToolResult(llm_response={"created": True})
