"""First-notice-of-loss tools. Policy records come from data/policies.json; new claims go to
the claims intake API, which returns the claim number."""

import json
import os
from pathlib import Path
from typing import Literal

import httpx
from rasa.mantle.tools.decorator import ToolContext, tool
from rasa.mantle.tools.result import ToolResult

DATA = Path(__file__).resolve().parents[2] / "data"
INTAKE_URL = os.environ.get("HM_INTAKE_URL", "https://intake.harbormutual.internal/v3")


def _policies() -> list[dict]:
    return json.loads((DATA / "policies.json").read_text())


def _label(policy: dict) -> str:
    if policy["line"] == "auto":
        return " and ".join(v["label"] for v in policy["vehicles"])
    return policy["address_label"]


@tool(description="List the policyholder's car and home policies with a label for each.")
async def list_policies(policyholder_id: str, context: ToolContext = None) -> ToolResult:
    """List the policies of one policyholder, lapsed ones included (they cannot take claims).

    Args:
        policyholder_id: Customer id from project memory, PH- followed by six digits.
    """
    mine = [p for p in _policies() if p["policyholder_id"] == policyholder_id]
    return ToolResult(
        llm_response={
            "policies": [
                {
                    "policy_number": p["policy_number"],
                    "line": p["line"],
                    "label": _label(p),
                    "status": p["status"],
                }
                for p in mine
            ]
        }
    )


@tool(description="Say in general terms what a policy covers (no amounts, no claim decisions).")
async def lookup_coverage(policy_number: str, context: ToolContext = None) -> ToolResult:
    """General coverage facts of a policy.

    Args:
        policy_number: HM-AU-####### or HM-HO-#######.
    """
    policy = next((p for p in _policies() if p["policy_number"] == policy_number), None)
    if policy is None:
        return ToolResult(llm_response={"error": "policy_not_found"})
    facts = {"line": policy["line"], "status": policy["status"]}
    if policy["line"] == "auto":
        facts["rental_cover"] = policy["rental_cover"]
    else:
        facts["water_backup_cover"] = policy["water_backup_cover"]
    return ToolResult(
        llm_response={**facts, "hint": "Never quote the deductible against this loss."}
    )


@tool(description="Open a new claim with the details the policyholder confirmed.")
async def submit_claim(
    policy_number: str,
    claim_type: Literal["auto", "home"],
    incident_description: str,
    incident_date: str,
    incident_time: str = "",
    incident_location: str = "",
    damaged_area: str = "",
    injuries_reported: bool = False,
    police_report_number: str = "",
    estimated_damage_usd: float | None = None,
    context: ToolContext = None,
) -> ToolResult:
    """File the first notice of loss.

    Args:
        policy_number: The policy the loss is on, e.g. HM-AU-4471028.
        claim_type: auto or home; must match the policy line.
        incident_description: What happened, in the caller's words.
        incident_date: Date of loss, MM/DD/YYYY.
        incident_time: Auto only: time of the loss, HH:MM (24h).
        incident_location: Auto only: street, intersection or highway exit.
        damaged_area: Home only: roof, basement, kitchen, bathroom, living_area, bedroom,
            garage, exterior or whole_home.
        injuries_reported: True if anyone was hurt.
        police_report_number: Report number or "none".
        estimated_damage_usd: The caller's rough estimate in dollars, if they gave one.
    """
    policy = next((p for p in _policies() if p["policy_number"] == policy_number), None)
    if policy is None or policy["status"] != "active":
        return ToolResult(llm_response={"filed": False, "error": "policy_not_active"})
    payload = {
        "policy_number": policy_number,
        "line": claim_type,
        "loss": {
            "description": incident_description,
            "date": incident_date,
            "time": incident_time or None,
            "location": incident_location or None,
            "area": damaged_area or None,
        },
        "injury": injuries_reported,
        "police_report": None
        if police_report_number.lower() in ("", "none")
        else police_report_number,
        "estimate_usd": estimated_damage_usd,
        "source": "virtual_assistant",
    }
    async with httpx.AsyncClient(base_url=INTAKE_URL, timeout=10.0) as api:
        response = await api.post("/claims", json=payload)
    if response.status_code >= 400:
        return ToolResult(
            llm_response={"filed": False, "error": response.json().get("code", "intake_error")}
        )
    claim_number = response.json()["claim_number"]
    if context is not None:
        context.memory.set("claim_number", claim_number)
    return ToolResult(llm_response={"filed": True, "claim_number": claim_number})


@tool(description="Book a rental car on an open auto claim when the policy has rental cover.")
async def request_rental_car(
    claim_number: str, pickup_zip: str, context: ToolContext = None
) -> ToolResult:
    """Reserve a rental with the partner agency.

    Args:
        claim_number: Claim number, CLM-YYYY-#####.
        pickup_zip: ZIP code where the policyholder wants to pick up the car.
    """
    async with httpx.AsyncClient(base_url=INTAKE_URL, timeout=10.0) as api:
        response = await api.post(f"/claims/{claim_number}/rental", json={"zip": pickup_zip})
    if response.status_code == 409:
        return ToolResult(llm_response={"booked": False, "reason": "no_rental_cover"})
    response.raise_for_status()
    reservation = response.json()["reservation_id"]
    if context is not None:
        context.memory.set("rental_reservation_id", reservation)
    return ToolResult(llm_response={"booked": True, "reservation_id": reservation})
