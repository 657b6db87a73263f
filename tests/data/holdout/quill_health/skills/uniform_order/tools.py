"""Uniform orders from the linen room."""

import os

import httpx
from rasa.mantle.tools.decorator import ToolContext, tool
from rasa.mantle.tools.result import ToolResult

LINEN_URL = os.environ.get("QH_LINEN_URL", "https://linen.quill-health.example/api")


@tool(description="Order uniform items for delivery to the staff member's ward.")
async def order_uniform(
    item: str, size: str, quantity: int, context: ToolContext = None
) -> ToolResult:
    """Place the order.

    Args:
        item: scrub_top, scrub_trousers or fleece.
        size: XS to XXL.
        quantity: 1 to 5.
    """
    async with httpx.AsyncClient(base_url=LINEN_URL, timeout=5.0) as api:
        response = await api.post("/orders", json={"item": item, "size": size, "qty": quantity})
    if response.status_code >= 400:
        return ToolResult(llm_response={"ordered": False})
    ref = response.json()["reference"]
    if context is not None:
        context.memory.set("order_ref", ref)
    return ToolResult(llm_response={"ordered": True, "reference": ref})
