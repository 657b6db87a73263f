"""Tools of the card_replace skill (auto-discovered, local to skills/card_replace/).

Two ways to replace a card, because the card network treats them differently:

- `order_replacement` reissues a damaged card: same number, same expiry, nothing to block.
- `place_replacement_order` issues a card with a new number after the old one was blocked
  (lost, stolen or never arrived).

Memory keys written here without a namespace belong to this skill (`card_replace.<key>`).
"""

from __future__ import annotations

import os
from typing import Literal

import httpx

from rasa.mantle.tools.decorator import ToolContext, tool
from rasa.mantle.tools.result import ToolResult

CARDS_API_URL = os.environ.get("RIVERBEND_CARDS_API_URL", "http://cards-api.riverbend.internal")
EXPRESS_FEE_USD = 15
DELIVERY_DAYS = {"standard": "5-7 business days", "express": "1-2 business days"}


def _cards_api() -> httpx.AsyncClient:
    return httpx.AsyncClient(
        base_url=CARDS_API_URL,
        headers={"Authorization": f"Bearer {os.environ['RIVERBEND_CARDS_API_TOKEN']}"},
        timeout=httpx.Timeout(8.0, connect=2.0),
    )


def _label(card: dict) -> str:
    return f"{card['product_name']} ending {card['last4']}"


@tool(description="List the customer's active debit and credit cards.")
async def list_cards(customer_id: str, context: ToolContext = None) -> ToolResult:
    """List the cards the customer holds, masked.

    Args:
        customer_id: The Riverbend customer number from project memory.
    """
    async with _cards_api() as api:
        response = await api.get(
            "/v1/cards", params={"customer_id": customer_id, "status": "active,blocked"}
        )
    response.raise_for_status()
    cards = [
        {"card_id": card["card_id"], "label": _label(card), "status": card["status"]}
        for card in response.json()["cards"]
    ]
    if not cards:
        return ToolResult(
            llm_response={"cards": [], "hint": "The customer has no cards to replace."}
        )
    return ToolResult(llm_response={"cards": cards})


@tool(description="Check whether a card can be replaced right now.")
async def check_replacement_eligibility(card_id: str, context: ToolContext = None) -> ToolResult:
    """Check that the card account is open and no replacement is already on its way.

    Args:
        card_id: The internal card id, as returned by list_cards.
    """
    async with _cards_api() as api:
        response = await api.get(f"/v1/cards/{card_id}/replacement-eligibility")
    response.raise_for_status()
    result = response.json()

    if context is not None:
        context.memory.set("eligibility_checked", True)
        context.memory.set("replacement_eligible", bool(result["eligible"]))
        context.memory.set("selected_card_label", _label(result["card"]))
    if not result["eligible"]:
        # e.g. "replacement_in_transit", "account_closed", "card_expiring_within_30_days"
        return ToolResult(llm_response={"eligible": False, "reason": result["reason"]})
    return ToolResult(llm_response={"eligible": True, "card": _label(result["card"])})


@tool(description="Block a card immediately so that it can no longer be used.")
async def block_card(card_id: str, reason: str, context: ToolContext = None) -> ToolResult:
    """Permanently block a card. This cannot be undone.

    Args:
        card_id: The internal card id, as returned by list_cards.
        reason: Why the card is blocked: lost, stolen or not_received.
    """
    payload = {"reason": reason, "channel": "virtual_assistant"}
    if reason == "stolen":
        payload["open_fraud_case"] = True
    async with _cards_api() as api:
        response = await api.post(f"/v1/cards/{card_id}/block", json=payload)
    if response.status_code == 409:  # already blocked
        if context is not None:
            context.memory.set("card_blocked", True)
        return ToolResult(llm_response={"blocked": True, "already_blocked": True})
    response.raise_for_status()

    if context is not None:
        context.memory.set("card_blocked", True)
    return ToolResult(
        llm_response={"blocked": True, "fraud_case_id": response.json().get("fraud_case_id")}
    )


@tool(description="Order a card with a new number to replace a blocked card.")
async def place_replacement_order(
    card_id: str,
    shipping: Literal["standard", "express"],
    reason: str,
    context: ToolContext = None,
) -> ToolResult:
    """Order a replacement card with a new card number, sent to the address on file.

    Args:
        card_id: The internal id of the blocked card being replaced.
        shipping: Shipping method: standard (free) or express ($15 fee).
        reason: Why the card is replaced: lost, stolen or not_received.
    """
    async with _cards_api() as api:
        response = await api.post(
            f"/v1/cards/{card_id}/replacements",
            json={"new_number": True, "shipping": shipping, "reason": reason},
        )
    if response.status_code == 422:
        return ToolResult(llm_response={"ordered": False, "error": response.json()["code"]})
    response.raise_for_status()
    order = response.json()

    if context is not None:
        context.memory.set("order_id", order["order_id"])
    return ToolResult(
        llm_response={
            "ordered": True,
            "order_id": order["order_id"],
            "arrives_in": DELIVERY_DAYS[shipping],
            "fee_usd": EXPRESS_FEE_USD if shipping == "express" else 0,
        }
    )


@tool(description="Reissue a damaged card with the same number and expiry date.")
async def order_replacement(
    card_id: str, shipping: str = "standard", context: ToolContext = None
) -> ToolResult:
    """Reissue a damaged card. The old card keeps working until the new one is activated.

    Args:
        card_id: The internal id of the damaged card.
        shipping: Shipping method, standard or express. Defaults to standard.
    """
    if shipping not in DELIVERY_DAYS:
        return ToolResult(llm_response={"ordered": False, "error": "unknown_shipping_method"})
    async with _cards_api() as api:
        response = await api.post(
            f"/v1/cards/{card_id}/reissue",
            json={"shipping": shipping, "reason": "damaged"},
        )
    response.raise_for_status()
    order = response.json()

    if context is not None:
        context.memory.set("order_id", order["order_id"])
    return ToolResult(
        llm_response={
            "ordered": True,
            "order_id": order["order_id"],
            "arrives_in": DELIVERY_DAYS[shipping],
            "old_card_works_until_activation": True,
        }
    )
