"""Stop orders and owner letters."""

import os

import httpx
from rasa.mantle.tools.decorator import ToolContext, tool
from rasa.mantle.tools.result import ToolResult

SERVICE_URL = os.environ.get("LW_SERVICE_URL", "https://service.larkspur-water.example/api")


@tool(description="Schedule the end of service at an address and the final meter read.")
async def schedule_stop(
    account_number: str, stop_date: str, forwarding_address: str, context: ToolContext = None
) -> ToolResult:
    """Create the stop order.

    Args:
        account_number: LW- followed by seven digits.
        stop_date: MM/DD/YYYY.
        forwarding_address: Where the final bill goes.
    """
    async with httpx.AsyncClient(base_url=SERVICE_URL, timeout=5.0) as api:
        response = await api.post(
            "/stops",
            json={"account": account_number, "date": stop_date, "forward": forwarding_address},
        )
    if response.status_code >= 400:
        return ToolResult(llm_response={"scheduled": False})
    order = response.json()
    if context is not None:
        context.memory.set("stop_id", order["id"])
    return ToolResult(llm_response={"scheduled": True, "id": order["id"]})


@tool(description="Send the property owner a letter that the tenant's service ends.")
async def notify_owner(account_number: str, context: ToolContext = None) -> ToolResult:
    """Queue the owner letter.

    Args:
        account_number: The tenant's account, LW- followed by seven digits.
    """
    async with httpx.AsyncClient(base_url=SERVICE_URL, timeout=5.0) as api:
        response = await api.post("/owner-letters", json={"account": account_number})
    return ToolResult(llm_response={"queued": response.status_code < 400})
