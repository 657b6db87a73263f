"""Transfer to the store pharmacist (phone queue) or a callback when they are busy."""

import os

import httpx
from rasa.mantle.tools.decorator import ToolContext, tool
from rasa.mantle.tools.result import ToolResult

TELEPHONY_URL = os.environ.get("TELEPHONY_URL", "https://voice.meadowrx.example/api")


@tool(description="Transfer the caller to a pharmacist at their store, or book a callback.")
async def transfer_to_pharmacist(
    store_id: str, question_type: str, context: ToolContext = None
) -> ToolResult:
    """Live transfer to the pharmacist queue of a store.

    Args:
        store_id: ST-### of the patient's store.
        question_type: dosage, side_effects, interaction, missed_dose, running_out,
            emergency or other.
    """
    async with httpx.AsyncClient(base_url=TELEPHONY_URL, timeout=5.0) as api:
        response = await api.post(
            f"/stores/{store_id}/pharmacist-queue", json={"topic": question_type}
        )
    if response.status_code == 409:  # all pharmacists busy: a callback was booked instead
        if context is not None:
            context.memory.set("callback_requested", True)
        return ToolResult(llm_response={"transferred": False, "callback": True})
    response.raise_for_status()
    return ToolResult(llm_response={"transferred": True})
