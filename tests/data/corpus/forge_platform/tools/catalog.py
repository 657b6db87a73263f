"""Service-catalog lookups shared by every Forge skill (imported by name in import_tools).

The catalog is exported from Backstage every ten minutes into data/services.json; it is the
source of truth for owners, tiers and what version runs where.
"""

import json
from pathlib import Path

from rasa.mantle.tools.decorator import ToolContext, tool
from rasa.mantle.tools.result import ToolResult

CATALOG = Path(__file__).resolve().parents[1] / "data" / "services.json"


def find_service(name: str) -> dict | None:
    wanted = name.strip().lower().removesuffix("-service")
    return next((s for s in json.loads(CATALOG.read_text()) if s["service"] == wanted), None)


@tool(
    description="Catalog entry of a service: owner team, tier, runbook, versions per environment."
)
async def get_service(service: str, context: ToolContext = None) -> ToolResult:
    """Catalog entry of one service. Secret names are never returned, only their count.

    Args:
        service: Catalog name in kebab-case, e.g. checkout-api or push-gateway.
    """
    entry = find_service(service)
    if entry is None:
        return ToolResult(llm_response={"found": False, "hint": "Ask for the exact catalog name."})
    return ToolResult(
        llm_response={
            "found": True,
            "service": entry["service"],
            "team": entry["team"],
            "tier": entry["tier"],
            "versions": entry["environments"],
            "runbook": entry["runbook"],
            "secret_count": len(entry["secrets"]),
        }
    )


@tool(
    description="Check whether the engineer in the thread may change a service (owner team or SRE)."
)
async def check_service_permission(
    service: str, handle: str, context: ToolContext = None
) -> ToolResult:
    """Owners and SREs may deploy, roll back and promote; everyone else may only read.

    Args:
        service: Catalog name, e.g. ledger-worker.
        handle: Slack handle without the @.
    """
    entry = find_service(service)
    engineers = json.loads((CATALOG.parent / "engineers.json").read_text())
    person = next((e for e in engineers if e["handle"] == handle), None)
    allowed = bool(entry and person and (person["sre"] or person["team"] == entry["team"]))
    return ToolResult(
        llm_response={"allowed": allowed, "owner_team": entry["team"] if entry else None}
    )
