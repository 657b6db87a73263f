"""Hand-off to the claims specialists: live transfer (phone) or a next-day callback."""

import os
from datetime import datetime
from zoneinfo import ZoneInfo

import httpx
from rasa.mantle.tools.decorator import ToolContext, tool
from rasa.mantle.tools.result import ToolResult

CONTACT_CENTER_URL = os.environ.get("HM_CONTACT_CENTER_URL", "https://cc.harbormutual.internal")


def _open_now() -> bool:
    now = datetime.now(ZoneInfo("America/New_York"))
    return now.weekday() < 5 and 8 <= now.hour < 20


@tool(description="Transfer a phone caller to the claims specialist queue (business hours only).")
async def transfer_to_queue(reason: str, context: ToolContext = None) -> ToolResult:
    """Warm-transfer the call with a one-line reason for the specialist.

    Args:
        reason: Why the caller wants a person, one sentence.
    """
    if not _open_now():
        return ToolResult(llm_response={"transferred": False, "reason": "outside_business_hours"})
    async with httpx.AsyncClient(base_url=CONTACT_CENTER_URL, timeout=5.0) as api:
        response = await api.post("/queues/claims/transfer", json={"note": reason})
    response.raise_for_status()
    if context is not None:
        context.memory.set("transferred", True)
    return ToolResult(
        llm_response={"transferred": True, "expected_wait_minutes": response.json()["wait"]}
    )


@tool(description="Book a callback from a claims specialist on the next business day.")
async def schedule_callback(window: str, reason: str, context: ToolContext = None) -> ToolResult:
    """Book a callback to the number on the policy.

    Args:
        window: morning (8-12), afternoon (12-5) or evening (5-8), Eastern time.
        reason: Why the caller wants a person.
    """
    async with httpx.AsyncClient(base_url=CONTACT_CENTER_URL, timeout=5.0) as api:
        response = await api.post("/callbacks", json={"window": window, "note": reason})
    if response.status_code >= 400:
        return ToolResult(llm_response={"booked": False})
    callback_id = response.json()["callback_id"]
    if context is not None:
        context.memory.set("callback_id", callback_id)
    return ToolResult(llm_response={"booked": True, "callback_id": callback_id})
