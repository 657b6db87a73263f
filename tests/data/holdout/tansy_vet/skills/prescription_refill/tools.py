"""Prescriptions on file (data/prescriptions.json) and refill requests to the pharmacy."""

import json
import os
from datetime import date, timedelta
from pathlib import Path

import httpx
from rasa.mantle.tools.decorator import ToolContext, tool
from rasa.mantle.tools.result import ToolResult

PRESCRIPTIONS = Path(__file__).resolve().parents[2] / "data" / "prescriptions.json"
PHARMACY_URL = os.environ.get("TANSY_PHARMACY_URL", "https://pharmacy.tansy-vet.example/api")


@tool(description="List a client's prescriptions, with exam dates and controlled status.")
async def list_prescriptions(client_id: str, context: ToolContext = None) -> ToolResult:
    """Read the client's prescriptions.

    Args:
        client_id: Five digits.
    """
    rows = [p for p in json.loads(PRESCRIPTIONS.read_text()) if p["client_id"] == client_id]
    cutoff = (date.today() - timedelta(days=365)).isoformat()
    if context is not None:
        context.memory.set("prescriptions", rows)
        if len(rows) == 1:
            context.memory.set("prescription_id", rows[0]["prescription_id"])
            context.memory.set("exam_current", rows[0]["last_exam"] >= cutoff)
            context.memory.set("controlled", rows[0]["controlled"])
            context.memory.set("refills_left", rows[0]["refills_left"])
    return ToolResult(
        llm_response={
            "prescriptions": [
                {
                    "prescription_id": p["prescription_id"],
                    "animal": p["animal"],
                    "drug": p["drug"],
                    "exam_current": p["last_exam"] >= cutoff,
                    "controlled": p["controlled"],
                }
                for p in rows
            ]
        }
    )


@tool(description="Send a repeat prescription request to the practice pharmacy.")
async def request_refill(
    prescription_id: str, pickup: str, context: ToolContext = None
) -> ToolResult:
    """Queue the refill for a vet to sign.

    Args:
        prescription_id: RX- followed by five digits.
        pickup: collect_town, collect_farm_office or post.
    """
    async with httpx.AsyncClient(base_url=PHARMACY_URL, timeout=5.0) as api:
        response = await api.post(
            "/refills", json={"prescription": prescription_id, "pickup": pickup}
        )
    if response.status_code >= 400:
        return ToolResult(llm_response={"requested": False})
    ref = response.json()["ref"]
    if context is not None:
        context.memory.set("refill_ref", ref)
    return ToolResult(llm_response={"requested": True, "ref": ref})
