"""Meters: the register the meter readers work from, and readings callers give."""

import csv
import os
from pathlib import Path

import httpx
from rasa.mantle.tools.decorator import ToolContext, tool
from rasa.mantle.tools.result import ToolResult

DATA = Path(__file__).resolve().parents[2] / "data"
BILLING_URL = os.environ.get("LW_BILLING_URL", "https://billing.larkspur-water.example/api")


@tool(description="Look a meter up in the meter register.")
async def find_meter(meter_id: str, context: ToolContext = None) -> ToolResult:
    """Read data/meters.csv.

    Args:
        meter_id: M- followed by six digits.
    """
    with (DATA / "meters.csv").open(newline="") as handle:
        meters = {row["meter_id"]: row for row in csv.DictReader(handle)}
    meter = meters.get(meter_id.strip().upper())
    if context is not None:
        context.memory.set("meter_found", meter is not None)
        if meter is not None:
            context.memory.set("last_reading", int(meter["last_reading"]))
    return ToolResult(llm_response={"found": meter is not None})


@tool(description="Send the caller's meter reading to billing.")
async def submit_reading(meter_id: str, reading: int, context: ToolContext = None) -> ToolResult:
    """Save the reading for the next bill.

    Args:
        meter_id: M- followed by six digits.
        reading: Whole cubic feet.
    """
    async with httpx.AsyncClient(base_url=BILLING_URL, timeout=5.0) as api:
        response = await api.post("/readings", json={"meter": meter_id, "reading": reading})
    saved = response.status_code < 400
    if context is not None:
        context.memory.set("reading_saved", saved)
    return ToolResult(llm_response={"saved": saved})
