"""Swap decisions for ward managers."""

import os

import httpx
from rasa.mantle.tools.decorator import ToolContext, tool
from rasa.mantle.tools.result import ToolResult

ROSTER_URL = os.environ.get("QH_ROSTER_URL", "https://roster.quill-health.example/api")


@tool(description="Read a swap request: who gives which shift to whom.")
async def get_swap(swap_id: str, context: ToolContext = None) -> ToolResult:
    """The request.

    Args:
        swap_id: SW- followed by five digits.
    """
    async with httpx.AsyncClient(base_url=ROSTER_URL, timeout=5.0) as api:
        response = await api.get(f"/swaps/{swap_id}")
    return ToolResult(llm_response=response.json())


@tool(description="Approve or refuse a swap request.")
async def decide_swap(
    swap_id: str, decision: str, reason: str = "", context: ToolContext = None
) -> ToolResult:
    """Send the decision.

    Args:
        swap_id: SW- followed by five digits.
        decision: approve or refuse.
        reason: Why it was refused.
    """
    async with httpx.AsyncClient(base_url=ROSTER_URL, timeout=5.0) as api:
        response = await api.post(
            f"/swaps/{swap_id}/decision", json={"decision": decision, "reason": reason}
        )
    if context is not None:
        context.memory.set("decided", response.status_code < 400)
    return ToolResult(llm_response={"sent": response.status_code < 400})
