"""Fuel cards: status, blocking and daily limits in the card provider's system."""

import json
import os
from pathlib import Path

import httpx
from rasa.mantle.tools.decorator import ToolContext, tool
from rasa.mantle.tools.result import ToolResult

CARDS_URL = os.environ.get("GF_CARDS_URL", "https://cards.granite-freight.example/api")
DATA = Path(__file__).resolve().parents[2] / "data"


@tool(description="Look up the status of a driver's fuel card.")
async def check_card_status(card_last4: str, context: ToolContext = None) -> ToolResult:
    """Read the card from data/fuel_cards.json (active, declined_limit or blocked).

    Args:
        card_last4: Last four digits of the card.
    """
    cards = json.loads((DATA / "fuel_cards.json").read_text())
    card = next((c for c in cards if c["card_last4"] == card_last4.strip()), None)
    status = card["status"] if card else "unknown"
    if context is not None:
        context.memory.set("card_status", status)
    return ToolResult(llm_response={"status": status})


@tool(description="Block a lost or stolen fuel card and order a replacement.")
async def block_fuel_card(card_last4: str, context: ToolContext = None) -> ToolResult:
    """Block the card with the provider; the replacement goes to the driver's depot.

    Args:
        card_last4: Last four digits of the card.
    """
    async with httpx.AsyncClient(base_url=CARDS_URL, timeout=8.0) as api:
        response = await api.post("/blocks", json={"last4": card_last4})
    if response.status_code >= 400:
        return ToolResult(llm_response={"blocked": False})
    block = response.json()
    if context is not None:
        context.memory.set("replacement_eta_days", int(block["replacement_days"]))
    return ToolResult(llm_response={"blocked": True})


@tool(description="Ask the fleet office for a higher daily fuel limit.")
async def request_limit_increase(
    card_last4: str, requested_limit_usd: float, reason: str, context: ToolContext = None
) -> ToolResult:
    """File the limit request.

    Args:
        card_last4: Last four digits of the card.
        requested_limit_usd: The daily limit wanted, in US dollars.
        reason: Why the driver needs it.
    """
    async with httpx.AsyncClient(base_url=CARDS_URL, timeout=8.0) as api:
        response = await api.post(
            "/limit-requests",
            json={"last4": card_last4, "limit": requested_limit_usd, "reason": reason},
        )
    return ToolResult(llm_response={"requested": response.status_code < 400})
