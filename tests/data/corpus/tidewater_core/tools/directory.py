"""The facility's user list: who may use the core, their lab and what they are trained on.

Records come from data/researchers.json, the nightly export of the training-records system.
"""

import json
from pathlib import Path

from rasa.mantle.tools.decorator import ToolContext, tool
from rasa.mantle.tools.result import ToolResult

DATA = Path(__file__).resolve().parents[1] / "data"


def _researchers() -> list[dict]:
    return json.loads((DATA / "researchers.json").read_text())


@tool(description="Look up a researcher by university badge number in the facility user list.")
async def lookup_researcher(badge_id: str, context: ToolContext = None) -> ToolResult:
    """Find the researcher and whether their facility account is active.

    Args:
        badge_id: Badge number, TU followed by seven digits (TU0412987); spaces are ignored.
    """
    wanted = badge_id.replace(" ", "").upper()
    person = next((r for r in _researchers() if r["badge_id"] == wanted), None)
    if person is None or not person["active"]:
        return ToolResult(llm_response={"found": person is not None, "active": False})
    if context is not None:
        context.memory.set("project.verified", True)
        context.memory.set("project.lab_group", person["lab_group"])
    first_name = person["name"].split()[0]
    return ToolResult(llm_response={"found": True, "active": True, "first_name": first_name})
