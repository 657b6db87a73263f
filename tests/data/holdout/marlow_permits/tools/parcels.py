"""The assessor's parcel register, shipped nightly as data/parcels/parcels.csv."""

import csv
from pathlib import Path

from rasa.mantle.tools.decorator import ToolContext, tool
from rasa.mantle.tools.result import ToolResult

PARCELS = Path(__file__).resolve().parents[1] / "data" / "parcels" / "parcels.csv"


@tool(description="Find the parcel at a street address.")
async def find_parcel(address: str, context: ToolContext = None) -> ToolResult:
    """Look the address up in the parcel register.

    Args:
        address: Street address, house number first (418 Quarry Lane).
    """
    wanted = " ".join(address.lower().replace(",", " ").split())
    with PARCELS.open(newline="") as handle:
        rows = [row for row in csv.DictReader(handle) if row["address"].lower() == wanted]
    if not rows:
        return ToolResult(llm_response={"found": False})
    parcel = rows[0]
    if context is not None:
        context.memory.set("project.parcel_id", parcel["parcel_id"])
    return ToolResult(
        llm_response={
            "found": True,
            "parcel_id": parcel["parcel_id"],
            "zone": parcel["zone"],
            "year_built": int(parcel["year_built"]),
            "owner_surname": parcel["owner_surname"],
        }
    )
