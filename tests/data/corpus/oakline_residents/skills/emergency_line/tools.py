"""Pages the on-call maintenance technician (after-hours rotation)."""

import os

import httpx
from rasa.mantle.tools.decorator import ToolContext, tool
from rasa.mantle.tools.result import ToolResult

PAGER_URL = os.environ.get("ONCALL_PAGER_URL", "https://oncall.oakline-res.example/api")


@tool(description="Page the on-call maintenance technician about an emergency in a unit.")
async def page_on_call_technician(
    unit: str, emergency_type: str, description: str, context: ToolContext = None
) -> ToolResult:
    """Page the technician on the after-hours rotation.

    Args:
        unit: Building code and unit, e.g. CEDAR-207.
        emergency_type: gas, fire, flooding, no_heat, electrical, lockout or security.
        description: One line on what is happening.
    """
    async with httpx.AsyncClient(base_url=PAGER_URL, timeout=5.0) as api:
        response = await api.post(
            "/pages", json={"unit": unit, "type": emergency_type, "text": description}
        )
    response.raise_for_status()
    if context is not None:
        context.memory.set("page_id", response.json()["id"])
    return ToolResult(
        llm_response={"paged": True, "callback_minutes": response.json()["callback_within"]}
    )
