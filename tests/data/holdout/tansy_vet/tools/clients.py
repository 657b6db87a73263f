"""The practice management system's client register."""

import os

import httpx
from rasa.mantle.tools.decorator import ToolContext, tool
from rasa.mantle.tools.result import ToolResult

PMS_URL = os.environ.get("TANSY_PMS_URL", "https://pms.tansy-vet.example/api/v1")


@tool(description="Check a client number against the postcode on the client's file.")
async def verify_client(
    client_number: str, postcode: str, context: ToolContext = None
) -> ToolResult:
    """Match the client.

    Args:
        client_number: Five digits, on every invoice and vaccination card.
        postcode: The postcode on the client's file, e.g. TN4 8QW.
    """
    async with httpx.AsyncClient(base_url=PMS_URL, timeout=5.0) as api:
        response = await api.post(
            "/clients/match", json={"number": client_number, "postcode": postcode.upper()}
        )
    matched = response.status_code == 200 and response.json().get("matched", False)
    if context is not None and matched:
        context.memory.set("project.client_verified", True)
        context.memory.set("project.client_id", client_number)
    return ToolResult(llm_response={"matched": bool(matched)})
