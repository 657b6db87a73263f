"""Tools of the human_handoff skill (auto-discovered, local to skills/human_handoff/)."""

from __future__ import annotations

import os
from typing import Literal

import httpx

from rasa.mantle.tools.decorator import ToolContext, tool
from rasa.mantle.tools.result import ToolResult

CONTACT_CENTRE_URL = os.environ.get(
    "RIVERBEND_CONTACT_CENTRE_URL", "http://contact-centre.riverbend.internal"
)


@tool(description="Transfer the conversation to a human agent in the given team.")
async def transfer_to_agent(
    queue: Literal["cards", "disputes", "fraud", "general"],
    summary: str,
    context: ToolContext = None,
) -> ToolResult:
    """Put the conversation in a contact-centre queue with a summary for the agent.

    Args:
        queue: The team to transfer to: cards, disputes, fraud or general.
        summary: One or two sentences for the agent about what the customer needs.
    """
    customer_id = context.memory.get("project.customer_id") if context is not None else None
    async with httpx.AsyncClient(
        base_url=CONTACT_CENTRE_URL,
        headers={"Authorization": f"Bearer {os.environ['RIVERBEND_CONTACT_CENTRE_TOKEN']}"},
        timeout=httpx.Timeout(5.0, connect=2.0),
    ) as api:
        response = await api.post(
            "/v1/transfers",
            json={
                "queue": queue,
                "summary": summary,
                "customer_id": customer_id,
                "verified": bool(context and context.memory.get("project.authenticated")),
            },
        )
    response.raise_for_status()
    transfer = response.json()

    if context is not None:
        context.memory.set("transfer_reference", transfer["reference"])
    return ToolResult(
        llm_response={
            "transferred": True,
            "estimated_wait_minutes": transfer["estimated_wait_minutes"],
            "outside_opening_hours": transfer.get("callback_scheduled", False),
        }
    )
