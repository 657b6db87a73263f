"""Customer lookup and identity verification, shared by the skills that touch an account.

A skill gets these only by listing them in `import_tools`. Both write project memory, which
is write-once per session: `customer_id` may already have been seeded by the channel.
"""

from __future__ import annotations

import os

import httpx

from rasa.mantle.tools.decorator import ToolContext, tool
from rasa.mantle.tools.result import ToolResult

CORE_API_URL = os.environ.get("RIVERBEND_CORE_API_URL", "http://core-api.riverbend.internal")
MAX_VERIFICATION_ATTEMPTS = 3


def _core_api() -> httpx.AsyncClient:
    return httpx.AsyncClient(
        base_url=CORE_API_URL,
        headers={"Authorization": f"Bearer {os.environ['RIVERBEND_CORE_API_TOKEN']}"},
        timeout=httpx.Timeout(5.0, connect=2.0),
    )


@tool(description="Find the customer record that belongs to a phone number.")
async def lookup_customer(phone: str, context: ToolContext = None) -> ToolResult:
    """Find the customer who owns a phone number.

    Args:
        phone: The phone number in E.164 format, for example +15550100.
    """
    async with _core_api() as api:
        response = await api.get("/v2/customers", params={"phone": phone})
    if response.status_code == 404:
        return ToolResult(llm_response={"found": False})
    response.raise_for_status()
    customer = response.json()

    if context is not None and not context.memory.get("project.customer_id"):
        context.memory.set("project.customer_id", customer["customer_id"])
    return ToolResult(
        llm_response={
            "found": True,
            "first_name": customer["first_name"],
            "has_cards": bool(customer.get("card_count")),
        }
    )


@tool(description="Check the customer's date of birth and postcode against the bank's records.")
async def verify_identity(
    customer_id: str, date_of_birth: str, postcode: str, context: ToolContext = None
) -> ToolResult:
    """Verify the customer with two facts from their record.

    Args:
        customer_id: The Riverbend customer number (from memory, never from the customer).
        date_of_birth: Date of birth as the customer said it, normalised to YYYY-MM-DD.
        postcode: Postcode or ZIP code of the address on the account.
    """
    async with _core_api() as api:
        response = await api.post(
            f"/v2/customers/{customer_id}/verifications",
            json={"date_of_birth": date_of_birth, "postcode": postcode.strip().upper()},
        )
    response.raise_for_status()
    result = response.json()

    if result["verified"]:
        if context is not None:
            context.memory.set("project.authenticated", True)
        return ToolResult(llm_response={"verified": True})

    attempts_left = max(MAX_VERIFICATION_ATTEMPTS - result["failed_attempts"], 0)
    return ToolResult(
        llm_response={
            "verified": False,
            "attempts_left": attempts_left,
            "hint": "Don't say which detail was wrong. Offer a human agent at zero attempts left.",
        }
    )
