"""Contractor licences as the state board lists them, checked against the portal PIN."""

import os

import httpx
from rasa.mantle.tools.decorator import ToolContext, tool
from rasa.mantle.tools.result import ToolResult

LICENSING_URL = os.environ.get("MARLOW_LICENSING_URL", "https://licensing.marlow-city.example/v2")


@tool(description="Check a contractor's license number and portal PIN.")
async def verify_license(license_number: str, pin: str, context: ToolContext = None) -> ToolResult:
    """Match the license against the state board and the PIN against the portal account.

    Args:
        license_number: MCL- followed by six digits, as printed on the pocket card.
        pin: The four-digit portal PIN.
    """
    async with httpx.AsyncClient(base_url=LICENSING_URL, timeout=5.0) as api:
        response = await api.post(
            "/licenses/verify", json={"license": license_number.strip().upper(), "pin": pin}
        )
    if response.status_code != 200:
        return ToolResult(llm_response={"verified": False})
    body = response.json()
    active = body.get("status") == "active"
    if context is not None and active:
        context.memory.set("project.license_verified", True)
        context.memory.set("project.license_number", license_number.strip().upper())
        context.memory.set("project.license_trade", body.get("trade", "general"))
    return ToolResult(llm_response={"verified": active, "status": body.get("status")})
