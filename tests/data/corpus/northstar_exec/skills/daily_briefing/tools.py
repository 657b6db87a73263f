"""Restricted board material, readable only by committee members."""

import json
import os
from pathlib import Path

import httpx
from rasa.mantle.tools.decorator import ToolContext, tool
from rasa.mantle.tools.result import ToolResult

EXECUTIVES = Path(__file__).resolve().parents[2] / "data" / "executives.json"
BOARD_PORTAL_URL = os.environ.get("BOARD_PORTAL_URL", "https://board.northstar-cp.example/api")


@tool(description="Check whether the executive is on a committee's distribution list.")
async def check_committee_access(
    exec_id: str, committee: str = "board", context: ToolContext = None
) -> ToolResult:
    """Committee membership from the directory.

    Args:
        exec_id: NS-### of the signed-in executive.
        committee: board, comp or audit.
    """
    people = json.loads(EXECUTIVES.read_text())
    member = any(p["exec_id"] == exec_id and committee in p["committees"] for p in people)
    if context is not None:
        context.memory.set("board_access", member)
    return ToolResult(llm_response={"member": member})


@tool(description="Summarise the current board pack for a committee member.")
async def get_board_materials(
    exec_id: str, committee: str = "board", context: ToolContext = None
) -> ToolResult:
    """Titles and one-line summaries of the latest pack.

    Args:
        exec_id: NS-### of the signed-in executive.
        committee: board, comp or audit.
    """
    async with httpx.AsyncClient(base_url=BOARD_PORTAL_URL, timeout=10.0) as api:
        response = await api.get(
            f"/committees/{committee}/packs/latest", params={"reader": exec_id}
        )
    if response.status_code == 403:
        return ToolResult(llm_response={"allowed": False})
    response.raise_for_status()
    return ToolResult(llm_response={"allowed": True, "documents": response.json()["documents"]})
