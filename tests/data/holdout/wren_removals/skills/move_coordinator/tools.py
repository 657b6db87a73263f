"""The office hand-off."""

from rasa.mantle.tools.decorator import ToolContext, tool
from rasa.mantle.tools.result import ToolResult


@tool(description="Hand the chat over to the move coordinator on duty, with a short summary.")
async def handoff_to_coordinator(summary: str, context: ToolContext = None) -> ToolResult:
    """Hand the chat over.

    Args:
        summary: What the customer needs.
    """
    return ToolResult(llm_response={"paged": True})
