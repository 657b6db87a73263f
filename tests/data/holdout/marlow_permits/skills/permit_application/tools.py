"""Zoning checks and permit applications."""

import json
import os
from pathlib import Path

import httpx
from rasa.mantle.tools.decorator import ToolContext, tool
from rasa.mantle.tools.result import ToolResult

ZONING = Path(__file__).resolve().parents[2] / "data" / "parcels" / "zoning.json"
PERMITS_URL = os.environ.get("MARLOW_PERMITS_URL", "https://permits.marlow-city.example/api")


@tool(description="Check whether a parcel's zone allows a kind of work, with its setbacks.")
async def check_zoning(parcel_id: str, work_type: str, context: ToolContext = None) -> ToolResult:
    """Read the zone's rules from data/parcels/zoning.json.

    Args:
        parcel_id: Five digits, a dash and three digits (04417-012).
        work_type: new_build, addition, alteration, demolition or solar.
    """
    zones = json.loads(ZONING.read_text())
    zone_code = "R-1" if parcel_id.startswith("04") else "R-2"
    rules = zones.get(zone_code, {})
    allowed = work_type in rules.get("allows", [])
    if context is not None:
        context.memory.set("zoning_ok", allowed)
    return ToolResult(
        llm_response={
            "allowed": allowed,
            "zone": zone_code,
            "rear_setback_ft": rules.get("rear_setback_ft"),
            "max_lot_coverage": rules.get("max_lot_coverage"),
        }
    )


@tool(description="Open a building permit application for a parcel.")
async def open_application(
    parcel_id: str,
    work_type: str,
    work_description: str,
    valuation: float,
    applicant_role: str,
    context: ToolContext = None,
) -> ToolResult:
    """Create the application in the permits system.

    Args:
        parcel_id: Five digits, a dash and three digits.
        work_type: new_build, addition, alteration, demolition or solar.
        work_description: The work in the applicant's words.
        valuation: Cost of the work in dollars.
        applicant_role: homeowner, contractor or architect.
    """
    async with httpx.AsyncClient(base_url=PERMITS_URL, timeout=8.0) as api:
        response = await api.post(
            "/applications",
            json={
                "parcel": parcel_id,
                "type": work_type,
                "description": work_description,
                "valuation": valuation,
                "role": applicant_role,
            },
        )
    if response.status_code >= 400:
        return ToolResult(llm_response={"opened": False})
    application = response.json()
    if context is not None:
        context.memory.set("application_id", application["id"])
    return ToolResult(llm_response={"opened": True, "application_id": application["id"]})


@tool(description="Name a licensed contractor on an application.")
async def add_contractor_of_record(
    application_id: str, license_number: str, context: ToolContext = None
) -> ToolResult:
    """Attach the contractor's license to the application.

    Args:
        application_id: PA- followed by six digits.
        license_number: MCL- followed by six digits.
    """
    async with httpx.AsyncClient(base_url=PERMITS_URL, timeout=5.0) as api:
        response = await api.post(
            f"/applications/{application_id}/contractor", json={"license": license_number}
        )
    return ToolResult(llm_response={"added": response.status_code < 400})


@tool(description="File a homeowner's hardship request to waive the permit fee.")
async def request_fee_waiver(
    application_id: str, reason: str, context: ToolContext = None
) -> ToolResult:
    """Queue the waiver request for a permit officer.

    Args:
        application_id: PA- followed by six digits.
        reason: Why the homeowner cannot pay, in their words.
    """
    async with httpx.AsyncClient(base_url=PERMITS_URL, timeout=5.0) as api:
        response = await api.post(f"/applications/{application_id}/waiver", json={"reason": reason})
    filed = response.status_code < 400
    if context is not None:
        context.memory.set("waiver_requested", filed)
    return ToolResult(llm_response={"filed": filed})
