"""Deploy pipeline tools. Reads come from the deploy log export (data/deploys.json); changes
go through the Forge pipeline API, which re-checks ownership and the freeze itself."""

import json
import os
import re
from pathlib import Path
from typing import Literal

import httpx
from rasa.mantle.tools.decorator import ToolContext, tool
from rasa.mantle.tools.result import ToolResult

DEPLOYS = Path(__file__).resolve().parents[2] / "data" / "deploys.json"
PIPELINE_URL = os.environ.get("FORGE_PIPELINE_URL", "http://pipeline.platform.svc.cluster.local")
TAG = re.compile(r"^v\d+\.\d+\.\d+(-rc\.\d+)?$")
SECRETS = re.compile(r"(?i)(password|secret|token|key)=\S+")


def _pipeline() -> httpx.AsyncClient:
    return httpx.AsyncClient(
        base_url=PIPELINE_URL,
        headers={"Authorization": f"Bearer {os.environ['FORGE_PIPELINE_TOKEN']}"},
        timeout=15.0,
    )


@tool(description="List recent deploys of a service, newest first.")
async def list_deploy_history(
    service: str, environment: str = "", limit: int = 5, context: ToolContext = None
) -> ToolResult:
    """Deploy history from the pipeline log.

    Args:
        service: Catalog name, e.g. checkout-api.
        environment: staging or prod; empty for both.
        limit: How many deploys to return (at most 20).
    """
    rows = [d for d in json.loads(DEPLOYS.read_text()) if d["service"] == service]
    if environment:
        rows = [d for d in rows if d["environment"] == environment]
    rows.sort(key=lambda d: d["started"], reverse=True)
    good = next((d["previous_version"] for d in rows if d["status"] == "succeeded"), None)
    if context is not None and good:
        context.memory.set("rollback_to", good)
    return ToolResult(
        llm_response={"deploys": rows[: min(limit, 20)], "previous_good_version": good}
    )


@tool(description="Start a deploy of a release tag to staging or prod.")
async def start_deploy(
    service: str,
    environment: Literal["staging", "prod"],
    version: str,
    incident_ref: str = "",
    context: ToolContext = None,
) -> ToolResult:
    """Kick off a rollout through the pipeline.

    Args:
        service: Catalog name, e.g. push-gateway.
        environment: staging or prod.
        version: Release tag like v2.41.0; release candidates (v5.2.0-rc.1) only to staging.
        incident_ref: INC-#### when a change freeze is active; empty otherwise.
    """
    if not TAG.match(version):
        return ToolResult(llm_response={"started": False, "error": "not_a_release_tag"})
    if environment == "prod" and "-rc" in version:
        return ToolResult(llm_response={"started": False, "error": "rc_not_allowed_in_prod"})
    async with _pipeline() as api:
        response = await api.post(
            f"/v1/services/{service}/deploys",
            json={"environment": environment, "version": version, "incident": incident_ref or None},
        )
    if response.status_code in (403, 409, 422):
        return ToolResult(llm_response={"started": False, "error": response.json()["reason"]})
    response.raise_for_status()
    deploy_id = response.json()["deploy_id"]
    if context is not None:
        context.memory.set("deploy_id", deploy_id)
    return ToolResult(llm_response={"started": True, "deploy_id": deploy_id})


@tool(description="Roll a service back to the previous good version in one environment.")
async def rollback_release(
    service: str, environment: Literal["staging", "prod"], context: ToolContext = None
) -> ToolResult:
    """Roll back to the last version that deployed successfully.

    Args:
        service: Catalog name.
        environment: staging or prod.
    """
    async with _pipeline() as api:
        response = await api.post(
            f"/v1/services/{service}/rollbacks", json={"environment": environment}
        )
    if response.status_code >= 400:
        return ToolResult(
            llm_response={
                "started": False,
                "error": response.json().get("reason", "pipeline_error"),
            }
        )
    if context is not None:
        context.memory.set("deploy_id", response.json()["deploy_id"])
    return ToolResult(llm_response={"started": True, **response.json()})


@tool(description="Promote the version running in staging to prod with a canary.")
async def promote_release(
    service: str, incident_ref: str = "", context: ToolContext = None
) -> ToolResult:
    """Promote staging to prod (10% canary for 15 minutes, then full rollout).

    Args:
        service: Catalog name.
        incident_ref: INC-#### during a change freeze.
    """
    async with _pipeline() as api:
        response = await api.post(
            f"/v1/services/{service}/promotions", json={"incident": incident_ref or None}
        )
    if response.status_code >= 400:
        return ToolResult(
            llm_response={
                "started": False,
                "error": response.json().get("reason", "pipeline_error"),
            }
        )
    if context is not None:
        context.memory.set("deploy_id", response.json()["deploy_id"])
    return ToolResult(llm_response={"started": True, **response.json()})


@tool(description="Fetch the first error lines of a failed deploy, with secrets masked.")
async def get_deploy_logs(deploy_id: str, context: ToolContext = None) -> ToolResult:
    """Failure summary of a deploy.

    Args:
        deploy_id: dep-YYYYMMDD-####, e.g. dep-20261201-0031.
    """
    async with _pipeline() as api:
        response = await api.get(
            f"/v1/deploys/{deploy_id}/logs", params={"level": "error", "limit": 40}
        )
    if response.status_code == 404:
        return ToolResult(llm_response={"found": False})
    lines = [SECRETS.sub(r"\1=[redacted]", line) for line in response.json()["lines"]]
    return ToolResult(llm_response={"found": True, "error_lines": lines[:10]})
