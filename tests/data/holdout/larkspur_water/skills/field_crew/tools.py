"""Call transfer to a person."""

from rasa.mantle.tools.decorator import ToolContext, tool
from rasa.mantle.tools.result import ToolResult


@tool(description="Transfer the phone call to a desk staffed by people.")
async def transfer_call(desk: str, context: ToolContext = None) -> ToolResult:
    """Hand the call over.

    Args:
        desk: billing or emergency.
    """
    return ToolResult(llm_response={"transferred": True, "desk": desk})
