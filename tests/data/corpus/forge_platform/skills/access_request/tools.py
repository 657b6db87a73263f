"""Short-lived production access through the access broker (Teleport-backed)."""

import os

import httpx
from rasa.mantle.tools.decorator import ToolContext, tool
from rasa.mantle.tools.result import ToolResult

BROKER_URL = os.environ.get("ACCESS_BROKER_URL", "https://access.kestrel.internal")
VALID_SCOPES = {"logs:read", "db:read", "db:write", "k8s:exec"}


@tool(description="Request temporary production access to one service.")
async def request_access(
    service: str,
    scopes: list[str],
    justification: str,
    duration_hours: int,
    context: ToolContext = None,
) -> ToolResult:
    """Ask the broker for a time-boxed grant.

    Args:
        service: Catalog name, e.g. checkout-api.
        scopes: Any of logs:read, db:read, db:write, k8s:exec.
        justification: One line, with a ticket or incident number if there is one.
        duration_hours: 1 to 8.
    """
    unknown = sorted(set(scopes) - VALID_SCOPES)
    if unknown:
        return ToolResult(
            llm_response={"requested": False, "error": "unknown_scopes", "scopes": unknown}
        )
    if not 1 <= duration_hours <= 8:
        return ToolResult(llm_response={"requested": False, "error": "duration_out_of_range"})
    async with httpx.AsyncClient(base_url=BROKER_URL, timeout=10.0) as api:
        response = await api.post(
            "/v2/grants",
            json={
                "service": service,
                "scopes": scopes,
                "reason": justification,
                "ttl_hours": duration_hours,
            },
        )
    if response.status_code >= 400:
        return ToolResult(llm_response={"requested": False, "error": response.json().get("error")})
    grant = response.json()
    if context is not None:
        context.memory.set("grant_id", grant["id"])
        context.memory.set("needs_second_approver", grant["state"] == "pending_approval")
    return ToolResult(llm_response={"requested": True, "state": grant["state"]})
