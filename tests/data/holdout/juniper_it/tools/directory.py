"""The district staff directory, read from the identity provider."""

import os

import httpx
from rasa.mantle.tools.decorator import ToolContext, tool

IDP_URL = os.environ.get("JUSD_IDP_URL", "https://idp.juniper-usd.example/api")


@tool(
    description="Check that the person in the chat owns the account, by employee id and birth date."
)
async def check_identity(employee_id: str, birth_date: str, context: ToolContext = None):
    """Match the employee id and birth date against the directory.

    Args:
        employee_id: Six-digit district employee number.
        birth_date: MM/DD/YYYY.
    """
    async with httpx.AsyncClient(base_url=IDP_URL, timeout=5.0) as api:
        response = await api.post("/verify", json={"id": employee_id, "dob": birth_date})
    matched = response.status_code == 200 and response.json().get("match", False)
    if context is not None:
        context.memory.set("identity_checked", bool(matched))
    return {"matched": bool(matched)}
