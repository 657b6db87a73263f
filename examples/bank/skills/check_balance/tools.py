"""Tools of the check_balance skill (auto-discovered, local to skills/check_balance/)."""

from __future__ import annotations

import os
from typing import Literal

import httpx

from rasa.mantle.tools.decorator import ToolContext, tool
from rasa.mantle.tools.result import ToolResult

CORE_API_URL = os.environ.get("RIVERBEND_CORE_API_URL", "http://core-api.riverbend.internal")


@tool(description="Get the balance of one of the customer's accounts.")
async def get_balance(
    customer_id: str,
    account_type: Literal["checking", "savings", "credit_card"],
    context: ToolContext = None,
) -> ToolResult:
    """Get the available and current balance of one account.

    Args:
        customer_id: The Riverbend customer number from project memory.
        account_type: Which account: checking, savings or credit_card.
    """
    async with httpx.AsyncClient(
        base_url=CORE_API_URL,
        headers={"Authorization": f"Bearer {os.environ['RIVERBEND_CORE_API_TOKEN']}"},
        timeout=httpx.Timeout(5.0, connect=2.0),
    ) as api:
        response = await api.get(
            f"/v2/customers/{customer_id}/accounts", params={"type": account_type}
        )
    response.raise_for_status()
    accounts = response.json()["accounts"]
    if not accounts:
        return ToolResult(llm_response={"found": False, "account_type": account_type})

    if context is not None:
        context.memory.set("balance_reported", True)

    if account_type == "credit_card":
        return ToolResult(
            llm_response={
                "found": True,
                "cards": [
                    {
                        "name": account["product_name"],
                        "amount_owed": account["statement_balance"],
                        "minimum_payment": account["minimum_payment"],
                        "due_date": account["payment_due_date"],
                        "currency": account["currency"],
                    }
                    for account in accounts
                ],
            }
        )
    return ToolResult(
        llm_response={
            "found": True,
            "accounts": [
                {
                    "name": account["product_name"],
                    "last4": account["number"][-4:],
                    "available": account["available_balance"],
                    "current": account["ledger_balance"],
                    "currency": account["currency"],
                }
                for account in accounts
            ],
        }
    )
