"""Expense submission to the firm's expense system (Concur-style REST API)."""

import os
from typing import Literal

import httpx
from rasa.mantle.tools.decorator import ToolContext, tool
from rasa.mantle.tools.result import ToolResult

EXPENSE_URL = os.environ.get("EXPENSE_API_URL", "https://expenses.northstar-cp.example/api/v4")


@tool(description="Submit one expense for the signed-in executive.")
async def submit_expense(
    exec_id: str,
    amount: float,
    currency: Literal["USD", "GBP", "EUR"],
    category: str,
    merchant: str,
    expense_date: str,
    attendees: list[str] | None = None,
    business_purpose: str = "",
    headcount: int | None = None,
    receipt_message_id: str = "",
    context: ToolContext = None,
) -> ToolResult:
    """Create and submit the expense in one go.

    Args:
        exec_id: NS-### of the signed-in executive (never anyone else).
        amount: Total including tax and tip, e.g. 84.50.
        currency: USD, GBP or EUR.
        category: airfare, lodging, ground_transport, meals, client_entertainment or other.
        merchant: As printed on the receipt.
        expense_date: MM/DD/YYYY.
        attendees: Client entertainment only: "Name (Company)" per person.
        business_purpose: Required for client_entertainment and ground_transport.
        headcount: Meals only: people covered.
        receipt_message_id: Inbox message id of the receipt; empty means a missing-receipt
            declaration.
    """
    if category == "client_entertainment" and not attendees:
        return ToolResult(llm_response={"submitted": False, "error": "attendees_required"})
    payload = {
        "employee": exec_id,
        "amount": round(amount, 2),
        "currency": currency,
        "category": category,
        "merchant": merchant,
        "date": expense_date,
        "attendees": attendees or [],
        "purpose": business_purpose,
        "headcount": headcount,
        "receipt": {"source": "mail", "id": receipt_message_id}
        if receipt_message_id
        else {"declaration": True},
    }
    async with httpx.AsyncClient(base_url=EXPENSE_URL, timeout=10.0) as api:
        response = await api.post("/expenses?submit=true", json=payload)
    if response.status_code >= 400:
        return ToolResult(
            llm_response={"submitted": False, "error": response.json().get("message")}
        )
    if context is not None:
        context.memory.set("expense_id", response.json()["id"])
    return ToolResult(
        llm_response={"submitted": True, "over_cap": response.json().get("policy_flags", [])}
    )
