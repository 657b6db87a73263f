"""Defect reports (DVIR) and roadside assistance for the fleet."""

import os

import httpx
from rasa.mantle.tools.decorator import ToolContext, tool
from rasa.mantle.tools.result import ToolResult

FLEET_URL = os.environ.get("GF_FLEET_URL", "https://fleet.granite-freight.example/api")


@tool(description="File a defect report for the truck in the workshop system.")
async def log_defect(
    truck_unit: str, component: str, severity: str, notes: str, context: ToolContext = None
) -> ToolResult:
    """Create the DVIR defect entry the depot workshop works from.

    Args:
        truck_unit: Unit number, T- followed by three digits.
        component: brakes, lights, mirrors, coupling or other.
        severity: minor or out_of_service.
        notes: The driver's description.
    """
    async with httpx.AsyncClient(base_url=FLEET_URL, timeout=8.0) as api:
        response = await api.post(
            "/defects",
            json={"unit": truck_unit, "component": component, "severity": severity, "notes": notes},
        )
    if response.status_code >= 400:
        return ToolResult(llm_response={"logged": False})
    defect = response.json()
    if context is not None:
        context.memory.set("defect_id", defect["id"])
    return ToolResult(llm_response={"logged": True, "id": defect["id"]})


@tool(description="Send a roadside assistance truck to a broken-down truck.")
async def request_roadside(
    location: str, truck_unit: str, context: ToolContext = None
) -> ToolResult:
    """Book the roadside service and get its arrival estimate.

    Args:
        location: Road and mile marker or exit, as the driver said it.
        truck_unit: Unit number, T- followed by three digits.
    """
    async with httpx.AsyncClient(base_url=FLEET_URL, timeout=8.0) as api:
        response = await api.post("/roadside", json={"location": location, "unit": truck_unit})
    if response.status_code >= 400:
        return ToolResult(llm_response={"booked": False})
    job = response.json()
    if context is not None:
        context.memory.set("roadside_ref", job["ref"])
        context.memory.set("eta_minutes", int(job["eta_minutes"]))
    return ToolResult(llm_response={"booked": True, "eta_minutes": job["eta_minutes"]})
