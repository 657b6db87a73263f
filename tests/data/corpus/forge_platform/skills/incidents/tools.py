"""Incident tools, backed by the incident service (incident.io-style API) and the deploy log."""

import json
import os
from datetime import UTC, datetime, timedelta
from pathlib import Path

import httpx
from rasa.mantle.tools.decorator import ToolContext, tool
from rasa.mantle.tools.result import ToolResult

DEPLOYS = Path(__file__).resolve().parents[2] / "data" / "deploys.json"
INCIDENTS_URL = os.environ.get("INCIDENTS_API_URL", "https://incidents.kestrel.internal/api")


@tool(description="List incidents that are open right now for a service, or for all services.")
async def find_open_incidents(service: str = "", context: ToolContext = None) -> ToolResult:
    """Open incidents, to avoid duplicates.

    Args:
        service: Catalog name, or empty for all services.
    """
    async with httpx.AsyncClient(base_url=INCIDENTS_URL, timeout=5.0) as api:
        response = await api.get(
            "/incidents", params={"status": "open", "service": service or None}
        )
    response.raise_for_status()
    return ToolResult(llm_response={"open": response.json()["incidents"]})


@tool(description="Find deploys of a service in the last few hours.")
async def find_recent_deploys(
    service: str, hours: int = 6, context: ToolContext = None
) -> ToolResult:
    """Recent deploys, to spot a change that lines up with the symptoms.

    Args:
        service: Catalog name.
        hours: How far back to look, 1 to 48.
    """
    since = datetime.now(UTC) - timedelta(hours=max(1, min(hours, 48)))
    rows = [
        d
        for d in json.loads(DEPLOYS.read_text())
        if d["service"] == service
        and datetime.fromisoformat(d["started"].replace("Z", "+00:00")) >= since
    ]
    if context is not None:
        context.memory.set("recent_deploy_found", bool(rows))
    return ToolResult(llm_response={"deploys": rows})


@tool(description="Open an incident with its own Slack channel.")
async def open_incident(
    service: str, severity: str, summary: str, reporter: str, context: ToolContext = None
) -> ToolResult:
    """Declare the incident.

    Args:
        service: Catalog name of the affected service.
        severity: sev1, sev2, sev3 or sev4.
        summary: One line of observed symptoms.
        reporter: Slack handle of the engineer declaring it.
    """
    async with httpx.AsyncClient(base_url=INCIDENTS_URL, timeout=8.0) as api:
        response = await api.post(
            "/incidents",
            json={
                "service": service,
                "severity": severity,
                "summary": summary,
                "reporter": reporter,
            },
        )
    if response.status_code >= 400:
        return ToolResult(llm_response={"opened": False})
    incident = response.json()
    if context is not None:
        context.memory.set("incident_id", incident["id"])
        context.memory.set("slack_channel", incident["channel"])
    return ToolResult(
        llm_response={"opened": True, "incident_id": incident["id"], "channel": incident["channel"]}
    )
