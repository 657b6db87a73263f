"""Account changes in the district identity provider."""

import os

import httpx
from rasa.mantle.tools.decorator import ToolContext, tool

IDP_URL = os.environ.get("JUSD_IDP_URL", "https://idp.juniper-usd.example/api")


@tool(description="Email a password reset link to the personal address on file.")
async def send_reset_link(employee_id: str, context: ToolContext = None):
    """Start a self-service reset.

    Args:
        employee_id: Six-digit district employee number.
    """
    async with httpx.AsyncClient(base_url=IDP_URL, timeout=5.0) as api:
        response = await api.post("/reset", json={"id": employee_id})
    sent = response.status_code < 400
    if context is not None and sent:
        context.memory.set("reset_link_sent", True)
    return {"sent": sent}


@tool(description="Unlock an account locked after failed sign-ins.")
async def unlock_account(employee_id: str, context: ToolContext = None):
    """Clear the lockout.

    Args:
        employee_id: Six-digit district employee number.
    """
    async with httpx.AsyncClient(base_url=IDP_URL, timeout=5.0) as api:
        response = await api.post("/unlock", json={"id": employee_id})
    return {"unlocked": response.status_code < 400}


@tool(description="Create a one-time code to enroll the sign-in app on a new phone.")
async def issue_enrollment_code(employee_id: str, context: ToolContext = None):
    """Issue the enrollment code.

    Args:
        employee_id: Six-digit district employee number.
    """
    async with httpx.AsyncClient(base_url=IDP_URL, timeout=5.0) as api:
        response = await api.post("/enroll", json={"id": employee_id})
    code = response.json()["code"]
    if context is not None:
        context.memory.set("enrollment_code", code)
    return {"issued": True}
