"""A first message names a value once: no "The service is ledger-worker." after a request
that already says ledger-worker; where the request alone routes elsewhere, the value's
first mention carries the field's word ("for the ledger-worker service")."""

from __future__ import annotations

import re
from pathlib import Path

from agentflows.drafting.offline._mantle_intent import routes
from agentflows.drafting.offline._mantle_script import build_script
from agentflows.planning import plan_source
from evalcore.definitions import load_project

FORGE = Path(__file__).parent / "data" / "corpus" / "forge_platform"
STATED = re.compile(r"The [a-z ]+ is (\S+)\.")


def test_an_opening_states_no_value_its_request_already_names() -> None:
    project = load_project(FORGE)
    assert project.mantle is not None
    skill = project.mantle.skills["deployments"]
    openings = {}
    for behavior in plan_source(project, "mantle", "deployments", None).behaviors:
        opening = build_script(project, behavior).context.opening or ""
        openings[behavior.id] = opening
        for value in STATED.findall(opening):
            assert opening.count(value) == 1, opening
    assert openings["deployments:status"].count("ledger-worker") == 1
    assert routes(project.mantle, skill, openings["deployments:status"])
