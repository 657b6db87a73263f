"""Loans and holds, from the library system's nightly export (data/)."""

import json
from datetime import date, timedelta
from pathlib import Path

from rasa.mantle.tools.decorator import ToolContext, tool
from rasa.mantle.tools.result import ToolResult

DATA = Path(__file__).resolve().parents[2] / "data"


@tool(description="List a member's current loans with their due dates.")
async def list_loans(card_number: str, context: ToolContext = None) -> ToolResult:
    """The member's loans.

    Args:
        card_number: 14 digits starting 2990.
    """
    loans = [
        loan
        for loan in json.loads((DATA / "loans.json").read_text())
        if loan["card_number"] == card_number
    ]
    if context is not None:
        context.memory.set("loans", loans)
    return ToolResult(
        llm_response={
            "loans": [
                {"barcode": loan["barcode"], "title": loan["title"], "due": loan["due"]}
                for loan in loans
            ]
        }
    )


@tool(description="Check whether another member has reserved an item.")
async def check_holds(item_barcode: str, context: ToolContext = None) -> ToolResult:
    """Holds on one item.

    Args:
        item_barcode: 14 digits starting 3119.
    """
    holds = [
        h
        for h in json.loads((DATA / "reservations.json").read_text())
        if h["barcode"] == item_barcode
    ]
    if context is not None:
        context.memory.set("reserved_elsewhere", bool(holds))
    return ToolResult(llm_response={"reserved": bool(holds)})


@tool(description="Renew a loan for three more weeks.")
async def renew_loan(item_barcode: str, context: ToolContext = None) -> ToolResult:
    """Renew it; an item renewed three times already is refused.

    Args:
        item_barcode: 14 digits starting 3119.
    """
    loan = next(
        (
            loan
            for loan in json.loads((DATA / "loans.json").read_text())
            if loan["barcode"] == item_barcode
        ),
        None,
    )
    if loan is None or loan["renewals"] >= 3:
        return ToolResult(llm_response={"renewed": False, "error": "renewal limit"}, is_error=True)
    due = (date.fromisoformat(loan["due"]) + timedelta(weeks=3)).isoformat()
    if context is not None:
        context.memory.set("new_due_date", due)
    return ToolResult(llm_response={"renewed": True, "due": due})
