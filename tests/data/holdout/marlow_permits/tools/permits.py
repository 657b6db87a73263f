"""Issued permits, read from the nightly export in data/permits/issued.json."""

import json
from pathlib import Path

from rasa.mantle.tools.decorator import ToolContext, tool
from rasa.mantle.tools.result import ToolResult

ISSUED = Path(__file__).resolve().parents[1] / "data" / "permits" / "issued.json"


@tool(description="Look up a building permit by its number.")
async def get_permit(permit_number: str, context: ToolContext = None) -> ToolResult:
    """Read one permit from the issued-permits export.

    Args:
        permit_number: BP- then the year and a five-digit serial (BP-2026-01873).
    """
    permits = {p["permit_number"]: p for p in json.loads(ISSUED.read_text())}
    permit = permits.get(permit_number.strip().upper())
    if permit is None:
        return ToolResult(llm_response={"found": False})
    if context is not None:
        context.memory.set("project.permit_status", permit["status"])
        context.memory.set("project.permit_active", permit["status"] == "issued")
    return ToolResult(
        llm_response={
            "found": True,
            "status": permit["status"],
            "work": permit["work"],
            "expires": permit["expires"],
            "inspections_passed": permit["inspections_passed"],
        }
    )
