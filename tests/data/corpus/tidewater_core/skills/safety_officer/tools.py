"""Paging the radiation safety officer (a person on the facility staff)."""

import os

import httpx
from rasa.mantle.tools.decorator import ToolContext, tool
from rasa.mantle.tools.result import ToolResult

PAGER_URL = os.environ.get("CORE_PAGER_URL", "https://pager.tidewater-core.example/api")


@tool(description="Page the radiation safety officer; hands the case to a person.")
async def page_safety_officer(
    summary: str, urgent: bool = False, context: ToolContext = None
) -> ToolResult:
    """Send a page to the officer on duty.

    Args:
        summary: One line for the officer, without badge numbers.
        urgent: True for a spill or an exposure.
    """
    async with httpx.AsyncClient(base_url=PAGER_URL, timeout=5.0) as api:
        response = await api.post("/pages", json={"summary": summary, "urgent": urgent})
    if response.status_code >= 400:
        return ToolResult(llm_response={"paged": False})
    page = response.json()
    if context is not None:
        context.memory.set("page_id", page["ref"])
    return ToolResult(llm_response={"paged": True})
