"""Refill tools on top of the pharmacy system. Prescription records come from
data/prescriptions.json (nightly export); orders go to the fill queue API."""

import json
import os
from datetime import date, timedelta
from pathlib import Path

import httpx
from rasa.mantle.tools.decorator import ToolContext, tool
from rasa.mantle.tools.result import ToolResult

RX = Path(__file__).resolve().parents[2] / "data" / "prescriptions.json"
FILL_QUEUE_URL = os.environ.get("FILL_QUEUE_URL", "https://fill.meadowrx.example/api/v2")
EARLY_FILL_RATIO = 0.75  # most plans allow a refill after 75% of the days' supply


def _mine(patient_id: str) -> list[dict]:
    return [
        rx
        for rx in json.loads(RX.read_text())
        if rx["patient_id"] == patient_id and rx["status"] == "active"
    ]


@tool(description="List the verified patient's active prescriptions with refills left.")
async def list_refillable(patient_id: str, context: ToolContext = None) -> ToolResult:
    """The patient's own active prescriptions.

    Args:
        patient_id: MP- followed by seven digits, from project memory only.
    """
    return ToolResult(
        llm_response={
            "prescriptions": [
                {
                    "rx_number": rx["rx_number"],
                    "drug": rx["drug"],
                    "refills_left": rx["refills_left"],
                }
                for rx in _mine(patient_id)
            ]
        }
    )


@tool(description="Check whether a prescription can be refilled today.")
async def check_refill_eligibility(
    rx_number: str, patient_id: str, context: ToolContext = None
) -> ToolResult:
    """Refills left, controlled status and the earliest allowed fill date.

    Args:
        rx_number: Seven-digit prescription number.
        patient_id: The verified patient's id.
    """
    rx = next((r for r in _mine(patient_id) if r["rx_number"] == rx_number.strip()), None)
    if rx is None:
        return ToolResult(llm_response={"found": False})
    last = date.fromisoformat(rx["last_fill"])
    ratio = 1.0 if rx["schedule"] else EARLY_FILL_RATIO
    earliest = last + timedelta(days=round(rx["days_supply"] * ratio))
    if context is not None:
        context.memory.set("drug_name", rx["drug"])
        context.memory.set("refills_left", rx["refills_left"])
        context.memory.set("is_controlled", bool(rx["schedule"]))
        context.memory.set("too_early", date.today() < earliest)
        context.memory.set("earliest_fill_date", earliest.strftime("%m/%d/%Y"))
    return ToolResult(
        llm_response={
            "found": True,
            "refills_left": rx["refills_left"],
            "earliest": earliest.isoformat(),
        }
    )


@tool(description="Send a refill to the fill queue for pickup or delivery.")
async def submit_refill(
    rx_number: str,
    fulfilment: str,
    pickup_store_id: str = "",
    pickup_date: str = "",
    context: ToolContext = None,
) -> ToolResult:
    """Queue the refill.

    Args:
        rx_number: Seven-digit prescription number.
        fulfilment: pickup or delivery.
        pickup_store_id: ST-### for pickup.
        pickup_date: MM/DD/YYYY for pickup; empty means as soon as ready.
    """
    payload = {
        "rx": rx_number,
        "method": fulfilment,
        "store": pickup_store_id or None,
        "pickup_date": pickup_date or None,
    }
    async with httpx.AsyncClient(base_url=FILL_QUEUE_URL, timeout=10.0) as api:
        response = await api.post("/refills", json=payload)
    if response.status_code >= 400:
        return ToolResult(llm_response={"submitted": False, "error": response.json().get("code")})
    order = response.json()
    if context is not None:
        context.memory.set("order_number", order["order_number"])
        context.memory.set("ready_at", order["ready_at_text"])
    return ToolResult(llm_response={"submitted": True})


@tool(description="Ask the prescriber to renew a prescription that has no refills left.")
async def request_prescriber_renewal(rx_number: str, context: ToolContext = None) -> ToolResult:
    """Fax or e-prescribe renewal request to the prescriber's office.

    Args:
        rx_number: Seven-digit prescription number.
    """
    async with httpx.AsyncClient(base_url=FILL_QUEUE_URL, timeout=10.0) as api:
        response = await api.post(f"/prescriptions/{rx_number}/renewal-requests")
    response.raise_for_status()
    return ToolResult(llm_response={"requested": True})
