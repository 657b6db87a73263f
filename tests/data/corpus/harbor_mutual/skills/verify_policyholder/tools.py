"""Attempt counting for the identity check (the check itself is the shared verify_policyholder)."""

from rasa.mantle.tools.decorator import ToolContext, tool
from rasa.mantle.tools.result import ToolResult

MAX_ATTEMPTS = 2


@tool(description="Record a failed verification attempt and say how many are left.")
async def record_failed_attempt(context: ToolContext = None) -> ToolResult:
    """Count one failed attempt. After two, the caller goes to a person."""
    failed = int(context.memory.get("failed_attempts") or 0) + 1 if context else 1
    if context is not None:
        context.memory.set("failed_attempts", failed)
    return ToolResult(llm_response={"attempts_left": max(MAX_ATTEMPTS - failed, 0)})
