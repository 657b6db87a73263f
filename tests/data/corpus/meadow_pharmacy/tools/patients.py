"""Patient identity, shared by every skill that touches a record. Reads the pharmacy system
export in data/patients.json. Only the verified patient's own data is ever returned."""

import json
from datetime import datetime
from pathlib import Path

from rasa.mantle.tools.decorator import ToolContext, tool
from rasa.mantle.tools.result import ToolResult

DATA = Path(__file__).resolve().parents[1] / "data"


def _dob(value: str) -> str | None:
    for fmt in ("%m/%d/%Y", "%m/%d/%y", "%Y-%m-%d", "%B %d %Y"):
        try:
            return datetime.strptime(value.replace(",", "").strip(), fmt).date().isoformat()
        except ValueError:
            pass
    return None


@tool(description="Verify the patient by date of birth and last name (and the calling number).")
async def verify_patient(
    date_of_birth: str, last_name: str, phone: str = "", context: ToolContext = None
) -> ToolResult:
    """Match a patient record.

    Args:
        date_of_birth: MM/DD/YYYY; "September 12th, 1948" is also accepted.
        last_name: Patient's last name.
        phone: Calling number in E.164, if known; narrows the match.
    """
    dob = _dob(date_of_birth)
    people = json.loads((DATA / "patients.json").read_text())
    matches = [
        p
        for p in people
        if p["date_of_birth"] == dob
        and p["last_name"].lower() == last_name.strip().lower()
        and (not phone or p["phone"] == phone)
    ]
    if len(matches) != 1:
        return ToolResult(llm_response={"verified": False})
    patient = matches[0]
    if context is not None:
        context.memory.set("project.patient_id", patient["patient_id"])
        context.memory.set("project.authenticated", True)
        context.memory.set("project.home_store_id", patient["home_store"])
    return ToolResult(llm_response={"verified": True, "first_name": patient["first_name"]})


@tool(description="Opening hours and address of a Meadow store.")
async def get_store(store_id: str, context: ToolContext = None) -> ToolResult:
    """Store details from data/stores.csv.

    Args:
        store_id: ST- followed by three digits, e.g. ST-014.
    """
    import csv

    with (DATA / "stores.csv").open(newline="") as handle:
        store = next((row for row in csv.DictReader(handle) if row["store_id"] == store_id), None)
    return ToolResult(llm_response={"found": store is not None, **(store or {})})
