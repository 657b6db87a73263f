"""Stock counts and restock orders. Par levels come from data/par_levels.csv; counts and
orders go to the distribution-centre API."""

import csv
import os
from datetime import date
from pathlib import Path

import httpx
from rasa.mantle.tools.decorator import ToolContext, tool
from rasa.mantle.tools.result import ToolResult

PARS = Path(__file__).resolve().parents[2] / "data" / "par_levels.csv"
DC_URL = os.environ.get("DC_API_URL", "https://dc.brewline.example/api")
CORE_SKUS = {
    "whole_milk_gallons": "MLK-WHL-GAL",
    "oat_milk_cartons": "MLK-OAT-CTN",
    "espresso_bags": "ESP-HSE-5LB",
}


def _pars(store_id: str) -> dict[str, dict]:
    with PARS.open(newline="") as handle:
        return {row["sku"]: row for row in csv.DictReader(handle) if row["store"] == store_id}


@tool(description="Par levels for a store: each item, its unit and the par quantity.")
async def lookup_par_levels(store_id: str, context: ToolContext = None) -> ToolResult:
    """The store's par sheet.

    Args:
        store_id: Store number like BL-0417.
    """
    rows = _pars(store_id)
    return ToolResult(
        llm_response={
            "items": [{k: r[k] for k in ("sku", "item", "unit", "par")} for r in rows.values()]
        }
    )


@tool(description="Save a stock count and flag what is under par.")
async def record_count(
    store_id: str,
    counted_by: str,
    whole_milk_gallons: int,
    oat_milk_cartons: int,
    espresso_bags: int,
    other_counts: dict | None = None,
    context: ToolContext = None,
) -> ToolResult:
    """Record the count.

    Args:
        store_id: Store number like BL-0417.
        counted_by: Partner number of the shift lead, E#####.
        whole_milk_gallons: Unopened gallons.
        oat_milk_cartons: Unopened cartons.
        espresso_bags: Sealed 5 lb bags.
        other_counts: Weekly counts by SKU; empty on a daily count.
    """
    counts = {
        CORE_SKUS[k]: v
        for k, v in {
            "whole_milk_gallons": whole_milk_gallons,
            "oat_milk_cartons": oat_milk_cartons,
            "espresso_bags": espresso_bags,
        }.items()
    }
    counts.update(other_counts or {})
    pars = _pars(store_id)
    short = [sku for sku, n in counts.items() if sku in pars and n < int(pars[sku]["par"])]
    count_id = f"CNT-{store_id.removeprefix('BL-')}-{date.today():%Y%m%d}"
    async with httpx.AsyncClient(base_url=DC_URL, timeout=8.0) as api:
        response = await api.put(
            f"/counts/{count_id}", json={"counted_by": counted_by, "counts": counts}
        )
    response.raise_for_status()
    if context is not None:
        context.memory.set("count_id", count_id)
        context.memory.set("below_par", bool(short))
    return ToolResult(llm_response={"saved": True, "below_par": short})


@tool(description="Suggest restock order lines from a saved count (milk excluded).")
async def suggest_restock(count_id: str, context: ToolContext = None) -> ToolResult:
    """Order lines that bring each short item back to par.

    Args:
        count_id: CNT-<store>-<YYYYMMDD>.
    """
    async with httpx.AsyncClient(base_url=DC_URL, timeout=8.0) as api:
        response = await api.get(f"/counts/{count_id}/suggested-order")
    response.raise_for_status()
    lines = [line for line in response.json()["lines"] if not line["sku"].startswith("MLK-")]
    return ToolResult(llm_response={"lines": lines})


@tool(description="Submit the restock order to the distribution centre.")
async def submit_restock_order(
    count_id: str, order_lines: list[dict], context: ToolContext = None
) -> ToolResult:
    """Place the order for the next delivery.

    Args:
        count_id: The count the order is based on.
        order_lines: [{"sku": "CUP-HOT-12", "quantity": 6}, ...]
    """
    async with httpx.AsyncClient(base_url=DC_URL, timeout=8.0) as api:
        response = await api.post("/orders", json={"count_id": count_id, "lines": order_lines})
    if response.status_code >= 400:
        return ToolResult(llm_response={"ordered": False})
    if context is not None:
        context.memory.set("order_id", response.json()["order_id"])
    return ToolResult(llm_response={"ordered": True, "delivery": response.json()["delivery_date"]})
