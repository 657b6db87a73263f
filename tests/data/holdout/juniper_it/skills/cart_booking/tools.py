"""Shared computer carts: what each school has, and reservations."""

import csv
import os
from pathlib import Path

import httpx
from rasa.mantle.tools.decorator import ToolContext, tool

CARTS_URL = os.environ.get("JUSD_CARTS_URL", "https://carts.juniper-usd.example/api")
DATA = Path(__file__).resolve().parents[2] / "data"


@tool(description="List the computer carts a school has.")
async def list_carts(school: str, context: ToolContext = None):
    """Carts from data/carts.csv (cart_id, devices, kind, room).

    Args:
        school: maple_elementary, cedar_middle or juniper_high.
    """
    with (DATA / "carts.csv").open() as handle:
        carts = [row for row in csv.DictReader(handle) if row["school"] == school]
    return {"carts": carts}


@tool(description="Reserve a cart for one class period.")
async def reserve_cart(cart_id: str, use_date: str, period: int, context: ToolContext = None):
    """Book the cart.

    Args:
        cart_id: CART- followed by a letter and a digit.
        use_date: MM/DD/YYYY.
        period: Class period, 1 to 7.
    """
    async with httpx.AsyncClient(base_url=CARTS_URL, timeout=5.0) as api:
        response = await api.post(
            "/reservations", json={"cart": cart_id, "date": use_date, "period": period}
        )
    if response.status_code >= 400:
        return {"reserved": False}
    reservation = response.json()
    if context is not None:
        context.memory.set("reservation_id", reservation["id"])
    return {"reserved": True}
