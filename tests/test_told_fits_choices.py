"""A reason in the user's words names the values the case gives, not another's.

Found on a platform assistant by a blind reviewer: an access request for `scopes:
logs:read` gave the justification "I need prod DB read access for search-indexer" (the
skill description's example, naming db:read) or "Give me kubectl exec on checkout-api for
an hour" (k8s:exec), so a careful agent asks which scope is meant.
"""

from __future__ import annotations

from pathlib import Path

from agentflows.drafting.offline._mantle_script import build_script
from agentflows.planning import plan_source
from evalcore.definitions import load_project

CORPUS = Path(__file__).parent / "data" / "corpus"
#: How each scope the skill lists reads in a sentence.
SAID = {
    "logs:read": ("logs:read", "logs read"),
    "db:read": ("db:read", "db read"),
    "db:write": ("db:write", "db write"),
    "k8s:exec": ("k8s:exec", "kubectl exec"),
}


def test_no_justification_names_another_scope_than_the_one_requested() -> None:
    project = load_project(CORPUS / "forge_platform")
    plan = plan_source(project, "mantle", "access_request", None)
    told = 0
    for slot, behavior in enumerate(plan.behaviors):
        facts = {f.field: f.value for f in build_script(project, behavior, slot=slot).sheet.facts}
        reason, scopes = (
            facts.get("access_request.justification"),
            facts.get("access_request.scopes"),
        )
        if reason is None or scopes is None:
            continue
        told += 1
        for scope, forms in SAID.items():
            if scope not in scopes:
                assert not any(form in reason.lower() for form in forms), (behavior.id, reason)
    assert told >= 2
