"""Damage claims."""

import os

import httpx
from rasa.mantle.tools.decorator import ToolContext, tool
from rasa.mantle.tools.result import ToolResult

CLAIMS_URL = os.environ.get("WREN_CLAIMS_URL", "https://claims.wren-removals.example")


@tool(description="File a damage or loss claim for the claims team.")
async def file_damage_claim(
    item_description: str,
    days_since_move: int,
    has_photos: bool = False,
    context: ToolContext = None,
) -> ToolResult:
    """Open the claim.

    Args:
        item_description: What was damaged or lost.
        days_since_move: Days since the move.
        has_photos: Whether they have photos.
    """
    async with httpx.AsyncClient(base_url=CLAIMS_URL, timeout=5.0) as api:
        response = await api.post(
            "/claims",
            json={"item": item_description, "days": days_since_move, "photos": has_photos},
        )
    if response.status_code >= 400:
        return ToolResult(llm_response={"filed": False}, is_error=True)
    ref = response.json()["claim_ref"]
    if context is not None:
        context.memory.set("claim_ref", ref)
    return ToolResult(llm_response={"claim_ref": ref})
