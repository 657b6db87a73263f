"""Stock and fee records in the library management system, through its staff API."""

import os

import httpx
from rasa.mantle.tools.decorator import ToolContext, tool
from rasa.mantle.tools.result import ToolResult

LMS_URL = os.environ.get("EMBER_LMS_URL", "https://lms.ember-libraries.example/staff/v2")


async def _post(path: str, body: dict) -> bool:
    async with httpx.AsyncClient(base_url=LMS_URL, timeout=5.0) as api:
        response = await api.post(path, json=body)
    return response.status_code < 400


@tool(description="Mark an item as damaged.")
async def mark_damaged(barcode: str, damage_level: str, context: ToolContext = None) -> ToolResult:
    """Damage record; beyond repair withdraws it.

    Args:
        barcode: 14 digits starting 3119.
        damage_level: minor or beyond_repair.
    """
    ok = await _post("/items/damage", {"barcode": barcode, "level": damage_level})
    if context is not None and ok:
        context.memory.set("recorded", True)
    return ToolResult(llm_response={"recorded": ok}, is_error=not ok)


@tool(description="Mark an item as missing and write it off.")
async def mark_missing(barcode: str, context: ToolContext = None) -> ToolResult:
    """Write-off.

    Args:
        barcode: 14 digits starting 3119.
    """
    ok = await _post("/items/missing", {"barcode": barcode})
    if context is not None and ok:
        context.memory.set("recorded", True)
    return ToolResult(llm_response={"recorded": ok, "holds_affected": 0})


@tool(description="Waive a member's fee at the counter.")
async def waive_fee(member_card: str, fee_amount: float, context: ToolContext = None) -> ToolResult:
    """Up to ten pounds.

    Args:
        member_card: 14 digits starting 2990.
        fee_amount: Pounds.
    """
    ok = await _post("/fees/waive", {"card": member_card, "amount": fee_amount})
    if context is not None and ok:
        context.memory.set("recorded", True)
    return ToolResult(llm_response={"waived": ok})


@tool(description="Ask the branch manager to approve a fee waiver.")
async def request_manager_waiver(
    member_card: str, fee_amount: float, context: ToolContext = None
) -> ToolResult:
    """Manager approval above ten pounds.

    Args:
        member_card: 14 digits starting 2990.
        fee_amount: Pounds.
    """
    ok = await _post("/fees/waiver-requests", {"card": member_card, "amount": fee_amount})
    if context is not None and ok:
        context.memory.set("recorded", True)
    return ToolResult(llm_response={"requested": ok})
