"""Shift swap requests."""

import os

import httpx
from rasa.mantle.tools.decorator import ToolContext, tool
from rasa.mantle.tools.result import ToolResult

ROSTER_URL = os.environ.get("QH_ROSTER_URL", "https://roster.quill-health.example/api")


@tool(description="Ask a colleague to take a shift; the ward manager approves the swap.")
async def request_swap(
    shift_date: str, colleague_id: str, context: ToolContext = None
) -> ToolResult:
    """Create the swap request.

    Args:
        shift_date: DD/MM/YYYY.
        colleague_id: The colleague's staff number.
    """
    async with httpx.AsyncClient(base_url=ROSTER_URL, timeout=6.0) as api:
        response = await api.post("/swaps", json={"date": shift_date, "to": colleague_id})
    if response.status_code >= 400:
        return ToolResult(llm_response={"requested": False})
    ref = response.json()["reference"]
    if context is not None:
        context.memory.set("swap_ref", ref)
    return ToolResult(llm_response={"requested": True, "reference": ref})
