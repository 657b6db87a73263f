"""The staff directory: who works where, read from the trust's identity service."""

import os

import httpx
from rasa.mantle.tools.decorator import ToolContext, tool
from rasa.mantle.tools.result import ToolResult

DIRECTORY_URL = os.environ.get("QH_DIRECTORY_URL", "https://directory.quill-health.example/api")


@tool(description="Find a colleague in the staff directory by full name, on the same site.")
async def find_colleague(full_name: str, context: ToolContext = None) -> ToolResult:
    """Look the colleague up.

    Args:
        full_name: The colleague's first and last name.
    """
    async with httpx.AsyncClient(base_url=DIRECTORY_URL, timeout=5.0) as api:
        response = await api.get("/people", params={"name": full_name})
    people = response.json().get("people", []) if response.status_code == 200 else []
    if context is not None:
        context.memory.set("colleague_found", len(people) == 1)
        if len(people) == 1:
            context.memory.set("colleague_id", people[0]["employee_id"])
    return ToolResult(llm_response={"matches": len(people)})
