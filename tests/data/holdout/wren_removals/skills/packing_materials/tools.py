"""Packing materials."""

from rasa.mantle.tools.decorator import ToolContext, tool
from rasa.mantle.tools.result import ToolResult


@tool(description="List the packing packs and their prices.")
async def list_packs(context: ToolContext = None) -> ToolResult:
    """Packs on sale."""
    return ToolResult(
        llm_response={
            "packs": [
                {"name": "Flat pack", "boxes": 20, "price_gbp": 35},
                {"name": "House pack", "boxes": 50, "price_gbp": 75},
            ]
        }
    )


@tool(description="Order boxes and packing materials for delivery.")
async def order_materials(
    boxes: int, wardrobe_box: bool = False, context: ToolContext = None
) -> ToolResult:
    """Place the order.

    Args:
        boxes: How many boxes.
        wardrobe_box: Whether to add a wardrobe box.
    """
    ref = f"PK-{10000 + boxes}"
    if context is not None:
        context.memory.set("order_ref", ref)
    return ToolResult(llm_response={"order_ref": ref, "free_delivery": boxes >= 40})
