"""Staff lookups shared by the scheduling and ops skills. Reads the nightly scheduling export
in data/ (employees.json, shifts.json). Pay rates and phone numbers never leave this module."""

import json
from pathlib import Path

from rasa.mantle.tools.decorator import ToolContext, tool
from rasa.mantle.tools.result import ToolResult

DATA = Path(__file__).resolve().parents[1] / "data"
PUBLIC_FIELDS = ("employee_id", "first_name", "role", "home_store", "certified")


def employees() -> list[dict]:
    return json.loads((DATA / "employees.json").read_text())


@tool(description="Find a coworker by first name at a store (no pay, phone or personal details).")
async def find_coworker(first_name: str, store_id: str, context: ToolContext = None) -> ToolResult:
    """Match a coworker by first name.

    Args:
        first_name: First name as the barista said it, e.g. "Lucia" or "Theo".
        store_id: Store number like BL-0417.
    """
    wanted = first_name.strip().lower().replace("í", "i")
    matches = [
        {k: e[k] for k in PUBLIC_FIELDS}
        for e in employees()
        if e["home_store"] == store_id and e["first_name"].lower().replace("í", "i") == wanted
    ]
    return ToolResult(llm_response={"matches": matches})


@tool(description="List the signed-in employee's upcoming shifts.")
async def my_shifts(employee_id: str, context: ToolContext = None) -> ToolResult:
    """Upcoming shifts of one employee.

    Args:
        employee_id: Partner number, E followed by five digits.
    """
    shifts = json.loads((DATA / "shifts.json").read_text())
    return ToolResult(
        llm_response={"shifts": [s for s in shifts if s["employee_id"] == employee_id]}
    )
