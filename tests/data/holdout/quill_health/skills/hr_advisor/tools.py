"""Calls with an HR advisor (a person)."""

import os

import httpx
from rasa.mantle.tools.decorator import ToolContext, tool
from rasa.mantle.tools.result import ToolResult

HR_URL = os.environ.get("QH_HR_URL", "https://hr.quill-health.example/api")


@tool(description="Book a call back from an HR advisor, a person in the HR team.")
async def book_advisor_call(
    topic: str, employee_id: str, context: ToolContext = None
) -> ToolResult:
    """Queue the call back.

    Args:
        topic: contract, grievance, health or other.
        employee_id: QH followed by six digits.
    """
    async with httpx.AsyncClient(base_url=HR_URL, timeout=5.0) as api:
        response = await api.post("/callbacks", json={"topic": topic, "employee": employee_id})
    return ToolResult(llm_response={"booked": response.status_code < 400})
