"""Shift changes through the scheduling system's API (the same one behind the Brewline
scheduling app). Every request lands as pending manager approval."""

import os

import httpx
from rasa.mantle.tools.decorator import ToolContext, tool
from rasa.mantle.tools.result import ToolResult

SCHEDULING_URL = os.environ.get("SCHEDULING_API_URL", "https://schedule.brewline.example/api/v1")


def _api() -> httpx.AsyncClient:
    return httpx.AsyncClient(
        base_url=SCHEDULING_URL,
        headers={"X-Api-Key": os.environ["SCHEDULING_API_KEY"]},
        timeout=8.0,
    )


@tool(description="Ask a coworker to trade shifts.")
async def request_swap(shift_id: str, coworker_id: str, context: ToolContext = None) -> ToolResult:
    """Create a swap request the coworker can accept in the app.

    Args:
        shift_id: The requester's shift, e.g. SH-0417-1205-B.
        coworker_id: Partner number of the coworker, e.g. E19877.
    """
    async with _api() as api:
        response = await api.post("/swaps", json={"shift_id": shift_id, "to": coworker_id})
    if response.status_code == 422:
        return ToolResult(llm_response={"sent": False, "reason": response.json()["reason"]})
    response.raise_for_status()
    if context is not None:
        context.memory.set("swap_request_id", response.json()["id"])
    return ToolResult(llm_response={"sent": True})


@tool(description="Post one of your shifts for anyone at the store to pick up.")
async def post_shift_giveaway(shift_id: str, context: ToolContext = None) -> ToolResult:
    """Offer a shift to the store.

    Args:
        shift_id: e.g. SH-0417-1207-C.
    """
    async with _api() as api:
        response = await api.post("/giveaways", json={"shift_id": shift_id})
    response.raise_for_status()
    return ToolResult(llm_response={"posted": True, "giveaway_id": response.json()["id"]})


@tool(description="List open shifts at a store in the next two weeks.")
async def list_open_shifts(
    store_id: str, employee_id: str, context: ToolContext = None
) -> ToolResult:
    """Open shifts, each marked with whether this employee is certified for it.

    Args:
        store_id: Store number like BL-0417.
        employee_id: Partner number of the person asking.
    """
    async with _api() as api:
        response = await api.get("/open-shifts", params={"store": store_id, "for": employee_id})
    response.raise_for_status()
    return ToolResult(llm_response={"open_shifts": response.json()["items"]})


@tool(description="Claim an open shift (pending manager approval).")
async def claim_open_shift(
    open_shift_id: str, employee_id: str, context: ToolContext = None
) -> ToolResult:
    """Ask for an open shift.

    Args:
        open_shift_id: OPN-#####.
        employee_id: Partner number of the person claiming it.
    """
    async with _api() as api:
        response = await api.post(
            f"/open-shifts/{open_shift_id}/claims", json={"employee_id": employee_id}
        )
    if response.status_code in (409, 422):
        return ToolResult(llm_response={"claimed": False, "reason": response.json()["reason"]})
    response.raise_for_status()
    return ToolResult(llm_response={"claimed": True})


@tool(description="List the signed-in employee's pending and recent shift requests.")
async def list_my_requests(employee_id: str, context: ToolContext = None) -> ToolResult:
    """Requests from the last 30 days.

    Args:
        employee_id: Partner number.
    """
    async with _api() as api:
        response = await api.get("/requests", params={"employee_id": employee_id, "days": 30})
    response.raise_for_status()
    return ToolResult(llm_response={"requests": response.json()["items"]})
