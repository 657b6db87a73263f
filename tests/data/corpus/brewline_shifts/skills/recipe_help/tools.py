"""Recipe-card lookup from data/recipes.csv (exported from the beverage team's card system)."""

import csv
from pathlib import Path

from rasa.mantle.tools.decorator import ToolContext, tool
from rasa.mantle.tools.result import ToolResult

RECIPES = Path(__file__).resolve().parents[2] / "data" / "recipes.csv"


@tool(description="Look up the build of a drink, optionally for one size.")
async def get_recipe(drink: str, size: str = "", context: ToolContext = None) -> ToolResult:
    """Recipe card rows for a drink.

    Args:
        drink: Menu name, e.g. "Honey Oat Latte"; case does not matter.
        size: small, medium, large or single; empty for every size.
    """
    with RECIPES.open(newline="") as handle:
        rows = [r for r in csv.DictReader(handle) if r["drink"].lower() == drink.strip().lower()]
    if size:
        rows = [r for r in rows if r["size"] == size] or rows
    if not rows:
        return ToolResult(llm_response={"found": False})
    return ToolResult(llm_response={"found": True, "builds": rows})
