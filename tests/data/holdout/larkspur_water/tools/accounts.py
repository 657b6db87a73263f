"""Billing accounts: who pays for which address."""

import os

import httpx
from rasa.mantle.tools.decorator import ToolContext, tool
from rasa.mantle.tools.result import ToolResult

BILLING_URL = os.environ.get("LW_BILLING_URL", "https://billing.larkspur-water.example/api")


@tool(description="Check an account number against the ZIP code of its service address.")
async def verify_account(
    account_number: str, service_zip: str, context: ToolContext = None
) -> ToolResult:
    """Match the account and its service address.

    Args:
        account_number: LW- followed by seven digits.
        service_zip: Five-digit ZIP code of the service address.
    """
    async with httpx.AsyncClient(base_url=BILLING_URL, timeout=5.0) as api:
        response = await api.post("/verify", json={"account": account_number, "zip": service_zip})
    matched = response.status_code == 200 and response.json().get("match", False)
    if context is not None and matched:
        context.memory.set("project.account_verified", True)
        context.memory.set("project.account_number", account_number.strip().upper())
    return ToolResult(llm_response={"matched": bool(matched)})
