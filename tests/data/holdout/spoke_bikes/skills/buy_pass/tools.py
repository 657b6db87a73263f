"""Passes and student status from the accounts API."""

import os

import httpx
from rasa.mantle.tools.decorator import ToolContext, tool
from rasa.mantle.tools.result import ToolResult

ACCOUNTS_URL = os.environ.get("SPOKE_ACCOUNTS_URL", "https://accounts.spoke-bikes.example/v2")


@tool(description="Check whether the rider's account has a verified student email.")
async def check_student_status(rider_id: str, context: ToolContext = None) -> ToolResult:
    """Student status.

    Args:
        rider_id: R- and six digits.
    """
    async with httpx.AsyncClient(base_url=ACCOUNTS_URL, timeout=5.0) as api:
        response = await api.get(f"/riders/{rider_id}/student")
    verified = response.status_code == 200 and response.json().get("verified", False)
    if context is not None:
        context.memory.set("student_verified", verified)
    return ToolResult(llm_response={"verified": verified})


@tool(description="Buy a pass for the rider.")
async def buy_pass(rider_id: str, pass_type: str, context: ToolContext = None) -> ToolResult:
    """Charge the card on file.

    Args:
        rider_id: R- and six digits.
        pass_type: day, monthly or student.
    """
    async with httpx.AsyncClient(base_url=ACCOUNTS_URL, timeout=5.0) as api:
        response = await api.post(f"/riders/{rider_id}/passes", json={"type": pass_type})
    if response.status_code >= 400:
        return ToolResult(llm_response={"bought": False}, is_error=True)
    ref = response.json()["ref"]
    if context is not None:
        context.memory.set("pass_ref", ref)
    return ToolResult(llm_response={"pass_ref": ref})
