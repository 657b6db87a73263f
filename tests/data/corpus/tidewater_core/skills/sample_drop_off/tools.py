"""Sample submissions and quotes in the core's LIMS."""

import csv
import os
from pathlib import Path

import httpx
from rasa.mantle.tools.decorator import ToolContext, tool
from rasa.mantle.tools.result import ToolResult

LIMS_URL = os.environ.get("CORE_LIMS_URL", "https://lims.tidewater-core.example/api")
DATA = Path(__file__).resolve().parents[2] / "data"


@tool(description="Price a batch of samples and estimate the turnaround.")
async def quote_samples(service: str, sample_count: int, context: ToolContext = None) -> ToolResult:
    """Quote from data/prices.csv (per-sample price and batch turnaround per service).

    Args:
        service: sequencing, proteomics or metabolomics.
        sample_count: Number of samples, 1 to 96.
    """
    with (DATA / "prices.csv").open() as handle:
        row = next(r for r in csv.DictReader(handle) if r["service"] == service)
    total = round(float(row["price_per_sample_usd"]) * sample_count, 2)
    if context is not None:
        context.memory.set("quote_usd", total)
        context.memory.set("turnaround_days", int(row["turnaround_days"]))
    return ToolResult(llm_response={"total_usd": total, "turnaround_days": row["turnaround_days"]})


@tool(description="Register the batch in the LIMS and get a submission id for the tubes.")
async def submit_samples(
    service: str, sample_count: int, hazard: str, context: ToolContext = None
) -> ToolResult:
    """Create the submission.

    Args:
        service: sequencing, proteomics or metabolomics.
        sample_count: Number of samples.
        hazard: none or biohazard (radioactive samples never come here).
    """
    async with httpx.AsyncClient(base_url=LIMS_URL, timeout=8.0) as api:
        response = await api.post(
            "/submissions", json={"service": service, "count": sample_count, "hazard": hazard}
        )
    if response.status_code >= 400:
        return ToolResult(llm_response={"submitted": False})
    submission = response.json()
    if context is not None:
        context.memory.set("submission_id", submission["id"])
    return ToolResult(llm_response={"submitted": True, "id": submission["id"]})
