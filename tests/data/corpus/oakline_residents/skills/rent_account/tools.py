"""Rent ledger (data/ledger.json export) and payments through the payments provider."""

import json
import os
from pathlib import Path
from typing import Literal

import httpx
from rasa.mantle.tools.decorator import ToolContext, tool
from rasa.mantle.tools.result import ToolResult

LEDGER = Path(__file__).resolve().parents[2] / "data" / "ledger.json"
PAYMENTS_URL = os.environ.get("PAYMENTS_API_URL", "https://pay.oakline-res.example/api")
CARD_FEE = 0.029


@tool(description="Current balance of the resident's lease with the charges that make it up.")
async def get_balance(resident_id: str, context: ToolContext = None) -> ToolResult:
    """Balance from the ledger.

    Args:
        resident_id: R-#####.
    """
    rows = [r for r in json.loads(LEDGER.read_text()) if r["resident_id"] == resident_id]
    balance = round(sum(r["amount"] for r in rows), 2)
    if context is not None:
        context.memory.set("balance_due", balance)
    open_charges = [r for r in rows if r["type"] == "charge"][-4:]
    return ToolResult(llm_response={"balance_due": balance, "recent_charges": open_charges})


@tool(description="Pay rent from a saved bank account or card.")
async def make_payment(
    resident_id: str, amount: float, method: Literal["ach", "card"], context: ToolContext = None
) -> ToolResult:
    """Charge the saved method.

    Args:
        resident_id: R-#####.
        amount: Dollars, e.g. 1940.00.
        method: ach (free) or card (2.9% fee added).
    """
    total = round(amount * (1 + CARD_FEE), 2) if method == "card" else amount
    async with httpx.AsyncClient(base_url=PAYMENTS_URL, timeout=15.0) as api:
        response = await api.post(
            "/payments", json={"resident": resident_id, "amount": total, "method": method}
        )
    if response.status_code >= 400:
        return ToolResult(
            llm_response={"paid": False, "error": response.json().get("decline_code")}
        )
    if context is not None:
        context.memory.set("confirmation_number", response.json()["confirmation"])
    return ToolResult(llm_response={"paid": True, "charged": total})


@tool(description="Ask the property manager for a payment plan on this month's balance.")
async def request_payment_plan(
    resident_id: str, installments: int, reason: str, context: ToolContext = None
) -> ToolResult:
    """Create a plan request for approval.

    Args:
        resident_id: R-#####.
        installments: 2 or 3.
        reason: A few words from the resident.
    """
    if installments not in (2, 3):
        return ToolResult(llm_response={"requested": False, "error": "installments_must_be_2_or_3"})
    async with httpx.AsyncClient(base_url=PAYMENTS_URL, timeout=8.0) as api:
        response = await api.post(
            "/plans", json={"resident": resident_id, "installments": installments, "reason": reason}
        )
    response.raise_for_status()
    return ToolResult(llm_response={"requested": True})


@tool(description="Email the payment receipt for a month to the address on the lease.")
async def send_receipt(resident_id: str, month: str, context: ToolContext = None) -> ToolResult:
    """Send a receipt.

    Args:
        resident_id: R-#####.
        month: MM/YYYY, e.g. 11/2026.
    """
    async with httpx.AsyncClient(base_url=PAYMENTS_URL, timeout=8.0) as api:
        response = await api.post("/receipts", json={"resident": resident_id, "month": month})
    if response.status_code == 404:
        return ToolResult(llm_response={"sent": False, "reason": "no_payment_that_month"})
    response.raise_for_status()
    return ToolResult(llm_response={"sent": True})


@tool(description="Turn autopay on or off for the lease.")
async def set_autopay(resident_id: str, enabled: bool, context: ToolContext = None) -> ToolResult:
    """Switch autopay.

    Args:
        resident_id: R-#####.
        enabled: True to turn autopay on, False to turn it off.
    """
    async with httpx.AsyncClient(base_url=PAYMENTS_URL, timeout=8.0) as api:
        response = await api.put(f"/residents/{resident_id}/autopay", json={"enabled": enabled})
    response.raise_for_status()
    return ToolResult(llm_response={"autopay": enabled})
