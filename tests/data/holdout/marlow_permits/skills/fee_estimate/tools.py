"""Permit fees from the adopted fee schedule (data/fees/schedule.csv)."""

import csv
from pathlib import Path

from rasa.mantle.tools.decorator import ToolContext, tool
from rasa.mantle.tools.result import ToolResult

SCHEDULE = Path(__file__).resolve().parents[2] / "data" / "fees" / "schedule.csv"


@tool(description="Estimate the permit and plan review fees for a kind of work.")
async def estimate_fees(
    work_type: str, valuation: float, context: ToolContext = None
) -> ToolResult:
    """Apply the fee schedule row for the kind of work.

    Args:
        work_type: new_build, addition, alteration, demolition or solar.
        valuation: The cost of the work in dollars.
    """
    with SCHEDULE.open(newline="") as handle:
        rows = {row["work_type"]: row for row in csv.DictReader(handle)}
    row = rows[work_type]
    permit_fee = float(row["base_fee"]) + float(row["per_thousand_valuation"]) * valuation / 1000
    permit_fee = max(permit_fee, float(row["minimum"]))
    review_fee = round(permit_fee * float(row["plan_review_pct"]), 2)
    if context is not None:
        context.memory.set("permit_fee", round(permit_fee, 2))
        context.memory.set("plan_review_fee", review_fee)
    return ToolResult(
        llm_response={"permit_fee": round(permit_fee, 2), "plan_review_fee": review_fee}
    )
