"""Balances and payment plans from the billing system."""

import os

import httpx
from rasa.mantle.tools.decorator import ToolContext, tool
from rasa.mantle.tools.result import ToolResult

BILLING_URL = os.environ.get("LW_BILLING_URL", "https://billing.larkspur-water.example/api")


@tool(description="Read the amount owed on an account today.")
async def get_balance(account_number: str, context: ToolContext = None) -> ToolResult:
    """Balance in dollars.

    Args:
        account_number: LW- followed by seven digits.
    """
    async with httpx.AsyncClient(base_url=BILLING_URL, timeout=5.0) as api:
        response = await api.get(f"/accounts/{account_number}/balance")
    balance = float(response.json()["balance"])
    if context is not None:
        context.memory.set("balance_due", balance)
    return ToolResult(llm_response={"balance": balance})


@tool(description="Set up a payment plan that splits the balance into monthly installments.")
async def create_payment_plan(
    account_number: str, installments: str, context: ToolContext = None
) -> ToolResult:
    """Create the plan.

    Args:
        account_number: LW- followed by seven digits.
        installments: 3, 6 or 12.
    """
    async with httpx.AsyncClient(base_url=BILLING_URL, timeout=5.0) as api:
        response = await api.post(
            "/plans", json={"account": account_number, "installments": int(installments)}
        )
    if response.status_code >= 400:
        return ToolResult(llm_response={"created": False})
    plan = response.json()
    if context is not None:
        context.memory.set("plan_id", plan["id"])
    return ToolResult(llm_response={"created": True, "id": plan["id"]})


@tool(description="Read the payment plan on an account: next due date, amount, missed payments.")
async def get_plan_status(account_number: str, context: ToolContext = None) -> ToolResult:
    """Plan status.

    Args:
        account_number: LW- followed by seven digits.
    """
    async with httpx.AsyncClient(base_url=BILLING_URL, timeout=5.0) as api:
        response = await api.get(f"/accounts/{account_number}/plan")
    plan = response.json()
    if context is not None:
        context.memory.set("next_due", plan["next_due"])
    return ToolResult(llm_response=plan)
