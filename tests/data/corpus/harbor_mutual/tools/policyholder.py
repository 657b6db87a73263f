"""Policyholder lookup and verification, shared by every skill that touches a policy.

Records come from the nightly policy extract in data/ (policyholders.json, policies.json);
the extract is the same one the call-centre desktop reads.
"""

import json
from datetime import datetime
from pathlib import Path

from rasa.mantle.tools.decorator import ToolContext, tool
from rasa.mantle.tools.result import ToolResult

DATA = Path(__file__).resolve().parents[1] / "data"


def _load(name: str) -> list[dict]:
    return json.loads((DATA / name).read_text())


def _normalise_dob(value: str) -> str | None:
    for fmt in ("%m/%d/%Y", "%Y-%m-%d", "%m-%d-%Y", "%B %d %Y"):
        try:
            return datetime.strptime(value.strip().replace(",", ""), fmt).date().isoformat()
        except ValueError:
            continue
    return None


@tool(description="Find the policyholder who owns a phone number or a policy number.")
async def find_policyholder(
    phone: str = "", policy_number: str = "", context: ToolContext = None
) -> ToolResult:
    """Look up the policyholder before verification.

    Args:
        phone: Phone number in E.164 format, e.g. +16175550123.
        policy_number: Policy number as printed on the declarations page, e.g. HM-AU-4471028
            (HM-AU for auto, HM-HO for home). Dashes and spaces are optional.
    """
    wanted = policy_number.replace(" ", "").upper()
    for person in _load("policyholders.json"):
        policies = [p.replace("-", "") for p in person["policies"]]
        if (phone and person["phone"] == phone) or (wanted and wanted.replace("-", "") in policies):
            if context is not None and not context.memory.get("project.policyholder_id"):
                context.memory.set("project.policyholder_id", person["policyholder_id"])
            return ToolResult(llm_response={"found": True, "first_name": person["first_name"]})
    return ToolResult(llm_response={"found": False})


@tool(description="Verify the caller with their policy number, date of birth and ZIP code.")
async def verify_policyholder(
    policy_number: str, date_of_birth: str, zip_code: str, context: ToolContext = None
) -> ToolResult:
    """Check three facts against the policy record. Never say which one did not match.

    Args:
        policy_number: Policy number, e.g. HM-HO-2208815.
        date_of_birth: Date of birth as MM/DD/YYYY (other spellings are accepted).
        zip_code: Five-digit ZIP code of the insured address or the mailing address.
    """
    dob = _normalise_dob(date_of_birth)
    number = policy_number.replace(" ", "").upper()
    match = next(
        (
            p
            for p in _load("policies.json")
            if p["policy_number"] == number
            and p["date_of_birth"] == dob
            and p["zip"] == zip_code[:5]
        ),
        None,
    )
    if match is None:
        return ToolResult(llm_response={"verified": False})
    if context is not None:
        context.memory.set("project.authenticated", True)
        if not context.memory.get("project.policyholder_id"):
            context.memory.set("project.policyholder_id", match["policyholder_id"])
    return ToolResult(llm_response={"verified": True, "policy_status": match["status"]})
