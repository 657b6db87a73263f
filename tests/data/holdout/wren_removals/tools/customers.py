"""Customer records, shared by every skill."""

from rasa.mantle.tools.decorator import ToolContext, tool
from rasa.mantle.tools.result import ToolResult


@tool(description="Find the customer's reference from the email the chat signed in with.")
async def find_customer(customer_email: str, context: ToolContext = None) -> ToolResult:
    """Look the customer up.

    Args:
        customer_email: The signed-in email address.
    """
    ref = "WR-" + str(abs(hash(customer_email)) % 100000).zfill(5)
    if context is not None:
        context.memory.set("project.customer_ref", ref)
    return ToolResult(llm_response={"customer_ref": ref})
