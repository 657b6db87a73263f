"""Annual leave: balances from data/leave_balances.json, requests to the rostering system."""

import json
import os
from pathlib import Path

import httpx
from rasa.mantle.tools.decorator import ToolContext, tool
from rasa.mantle.tools.result import ToolResult

DATA = Path(__file__).resolve().parents[2] / "data"
ROSTER_URL = os.environ.get("QH_ROSTER_URL", "https://roster.quill-health.example/api")


@tool(description="Read how many days of annual leave a staff member has left.")
async def check_leave_balance(employee_id: str, context: ToolContext = None) -> ToolResult:
    """Balance for the leave year.

    Args:
        employee_id: QH followed by six digits.
    """
    balances = json.loads((DATA / "leave_balances.json").read_text())
    entry = balances.get(employee_id.strip().upper())
    if entry is None:
        return ToolResult(llm_response={"found": False})
    if context is not None:
        context.memory.set("days_left", entry["days_left"])
        context.memory.set("carried_over", entry["carried_over"])
    return ToolResult(llm_response={"found": True, **entry})


@tool(description="Send a leave request to the ward manager for approval.")
async def submit_leave_request(
    employee_id: str, start_date: str, end_date: str, context: ToolContext = None
) -> ToolResult:
    """Create the request.

    Args:
        employee_id: QH followed by six digits.
        start_date: DD/MM/YYYY.
        end_date: DD/MM/YYYY.
    """
    async with httpx.AsyncClient(base_url=ROSTER_URL, timeout=6.0) as api:
        response = await api.post(
            "/leave", json={"employee": employee_id, "from": start_date, "to": end_date}
        )
    if response.status_code >= 400:
        return ToolResult(llm_response={"sent": False})
    ref = response.json()["reference"]
    if context is not None:
        context.memory.set("leave_ref", ref)
    return ToolResult(llm_response={"sent": True, "reference": ref})


@tool(description="Cancel a leave request that was booked.")
async def cancel_leave_request(request_id: str, context: ToolContext = None) -> ToolResult:
    """Cancel it.

    Args:
        request_id: LR- followed by five digits.
    """
    async with httpx.AsyncClient(base_url=ROSTER_URL, timeout=6.0) as api:
        response = await api.delete(f"/leave/{request_id}")
    done = response.status_code < 400
    if context is not None:
        context.memory.set("cancelled", done)
    return ToolResult(llm_response={"cancelled": done})
