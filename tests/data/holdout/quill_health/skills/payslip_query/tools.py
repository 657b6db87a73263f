"""Payslips and payroll queries."""

import os

import httpx
from rasa.mantle.tools.decorator import ToolContext, tool
from rasa.mantle.tools.result import ToolResult

PAYROLL_URL = os.environ.get("QH_PAYROLL_URL", "https://payroll.quill-health.example/api")


@tool(description="Fetch one month's payslip for a staff member.")
async def get_payslip(employee_id: str, pay_month: str, context: ToolContext = None) -> ToolResult:
    """The payslip's lines.

    Args:
        employee_id: QH followed by six digits.
        pay_month: MM/YYYY.
    """
    async with httpx.AsyncClient(base_url=PAYROLL_URL, timeout=5.0) as api:
        response = await api.get(f"/payslips/{employee_id}/{pay_month.replace('/', '-')}")
    found = response.status_code == 200
    if context is not None:
        context.memory.set("payslip_found", found)
    return ToolResult(llm_response=response.json() if found else {"found": False})


@tool(description="Raise a query with payroll about missing or wrong pay.")
async def raise_pay_query(
    employee_id: str, pay_month: str, summary: str, context: ToolContext = None
) -> ToolResult:
    """Open the query.

    Args:
        employee_id: QH followed by six digits.
        pay_month: MM/YYYY.
        summary: One line for payroll.
    """
    async with httpx.AsyncClient(base_url=PAYROLL_URL, timeout=5.0) as api:
        response = await api.post(
            "/queries", json={"employee": employee_id, "month": pay_month, "summary": summary}
        )
    if response.status_code >= 400:
        return ToolResult(llm_response={"raised": False})
    ref = response.json()["reference"]
    if context is not None:
        context.memory.set("query_ref", ref)
    return ToolResult(llm_response={"raised": True, "reference": ref})
