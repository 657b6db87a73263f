"""The member register, shared by every skill that needs a signed-in member."""

import json
from pathlib import Path

from rasa.mantle.tools.decorator import ToolContext, tool
from rasa.mantle.tools.result import ToolResult

MEMBERS = Path(__file__).resolve().parents[1] / "data" / "members.json"


@tool(description="Check a library card number and PIN against the member register.")
async def verify_member(card_number: str, pin: str, context: ToolContext = None) -> ToolResult:
    """Sign the member in.

    Args:
        card_number: 14 digits starting 2990.
        pin: Four digits.
    """
    members = {m["card_number"]: m for m in json.loads(MEMBERS.read_text())}
    member = members.get(card_number.replace(" ", ""))
    matched = member is not None and member["pin"] == pin
    if context is not None and matched:
        context.memory.set("project.member_verified", True)
        context.memory.set("project.card_number", member["card_number"])
    return ToolResult(llm_response={"matched": matched})
