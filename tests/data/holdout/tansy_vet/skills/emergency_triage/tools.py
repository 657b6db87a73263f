"""The practice's toxin table (data/toxins.json): thresholds per kilogram by species."""

import json
from pathlib import Path

from rasa.mantle.tools.decorator import ToolContext, tool
from rasa.mantle.tools.result import ToolResult

TOXINS = Path(__file__).resolve().parents[2] / "data" / "toxins.json"


@tool(description="Check whether an amount of a substance is toxic for a species and weight.")
async def check_toxin(
    substance: str, species: str, weight_kg: float, context: ToolContext = None
) -> ToolResult:
    """Compare against the toxin table; an unknown substance counts as severe.

    Args:
        substance: What was eaten, one word (chocolate, grapes, xylitol, lilies, ibuprofen, yew).
        species: The kind of animal.
        weight_kg: The animal's weight in kilograms.
    """
    table = json.loads(TOXINS.read_text())
    entry = table.get(substance.strip().lower(), {}).get(species)
    if entry is None or entry["severe_per_kg"] == 0:
        level = "severe"
    else:
        level = "mild" if weight_kg > 0 else "severe"
    if context is not None:
        context.memory.set("toxic_dose", level)
        context.memory.set("urgency", "now" if level == "severe" else "today")
    return ToolResult(llm_response={"level": level, "unit": (entry or {}).get("unit")})
