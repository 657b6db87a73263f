"""Tools of the dispute_charge skill (auto-discovered, local to skills/dispute_charge/)."""

from __future__ import annotations

import os
from datetime import date, timedelta

import httpx

from rasa.mantle.tools.decorator import ToolContext, tool
from rasa.mantle.tools.result import ToolResult

CORE_API_URL = os.environ.get("RIVERBEND_CORE_API_URL", "http://core-api.riverbend.internal")
DISPUTE_WINDOW_DAYS = 120


def _core_api() -> httpx.AsyncClient:
    return httpx.AsyncClient(
        base_url=CORE_API_URL,
        headers={"Authorization": f"Bearer {os.environ['RIVERBEND_CORE_API_TOKEN']}"},
        timeout=httpx.Timeout(8.0, connect=2.0),
    )


@tool(description="List the customer's recent card payments.")
async def list_recent_transactions(
    customer_id: str, days: int = 60, context: ToolContext = None
) -> ToolResult:
    """List settled and pending card payments of the last few days.

    Args:
        customer_id: The Riverbend customer number from project memory.
        days: How many days to look back, at most 120 (the dispute window).
    """
    days = min(max(days, 1), DISPUTE_WINDOW_DAYS)
    since = date.today() - timedelta(days=days)
    async with _core_api() as api:
        response = await api.get(
            f"/v2/customers/{customer_id}/card-transactions",
            params={"since": since.isoformat(), "include_pending": "true"},
        )
    response.raise_for_status()
    transactions = [
        {
            "id": tx["transaction_id"],
            "merchant": tx["merchant_name"],
            "amount": tx["amount"],
            "currency": tx["currency"],
            "date": tx["booking_date"],
            "pending": tx["status"] == "pending",
            "card_last4": tx["card_last4"],
        }
        for tx in response.json()["transactions"]
    ]
    if context is not None:
        context.memory.set("transactions_loaded", True)
    return ToolResult(llm_response={"since": since.isoformat(), "transactions": transactions})


@tool(description="Open a dispute case for one card payment.")
async def open_dispute(
    transaction_id: str,
    reason: str,
    expected_amount: float | None = None,
    context: ToolContext = None,
) -> ToolResult:
    """Open a chargeback dispute with the card network.

    Args:
        transaction_id: Id of the payment, as returned by list_recent_transactions.
        reason: duplicate, wrong_amount or goods_not_received.
        expected_amount: For wrong_amount, what the customer agreed to pay.
    """
    if reason == "unrecognised":
        return ToolResult(
            llm_response={"opened": False, "error": "unrecognised payments go to the fraud team"}
        )
    if reason == "wrong_amount" and expected_amount is None:
        return ToolResult(llm_response={"opened": False, "error": "expected_amount is missing"})

    body = {"transaction_id": transaction_id, "reason": reason, "channel": "virtual_assistant"}
    if expected_amount is not None:
        body["expected_amount"] = round(expected_amount, 2)
    async with _core_api() as api:
        response = await api.post("/v2/disputes", json=body)
    if response.status_code == 409:
        existing = response.json()["case_id"]
        if context is not None:
            context.memory.set("case_id", existing)
        return ToolResult(llm_response={"opened": False, "already_open": True, "case_id": existing})
    response.raise_for_status()
    case = response.json()

    if context is not None:
        context.memory.set("case_id", case["case_id"])
    return ToolResult(
        llm_response={
            "opened": True,
            "case_id": case["case_id"],
            "provisional_credit": case.get("provisional_credit_amount"),
        }
    )
