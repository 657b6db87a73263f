"""Live-agent transfer through the contact-centre platform."""

import os

import httpx
from rasa.mantle.tools.decorator import ToolContext, tool
from rasa.mantle.tools.result import ToolResult

CONTACT_URL = os.environ.get("CONTACT_CENTER_URL", "https://cc.skyway.example/api")


@tool(description="Transfer the passenger to a human agent with a summary.")
async def transfer_to_agent(
    topic: str, summary: str, loyalty_tier: str = "none", context: ToolContext = None
) -> ToolResult:
    """Queue the conversation for an agent.

    Args:
        topic: rebooking, refund, baggage, complaint, medical, accessibility or other.
        summary: Two lines on what happened so far.
        loyalty_tier: none, silver, gold or platinum; gold and platinum use the priority queue.
    """
    queue = "priority" if loyalty_tier in ("gold", "platinum") else "general"
    async with httpx.AsyncClient(base_url=CONTACT_URL, timeout=5.0) as api:
        response = await api.post(
            f"/queues/{queue}/conversations", json={"topic": topic, "summary": summary}
        )
    if response.status_code == 503:
        return ToolResult(llm_response={"transferred": False})
    response.raise_for_status()
    if context is not None:
        context.memory.set("queue_position", response.json()["position"])
    return ToolResult(
        llm_response={"transferred": True, "wait_minutes": response.json()["estimated_wait"]}
    )
