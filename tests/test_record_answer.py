"""A read-only question about one record of a data file (the drink on the recipe card, the
service in the catalog) gets a criterion giving the values the prose has the agent state,
read from the file with its line: an agent that calls the lookup and then gives other
values fails it. A path that runs a gated tool, or a lookup of another file, gets none."""

from __future__ import annotations

from pathlib import Path

from agentflows.drafting import DraftContext
from agentflows.drafting.offline._mantle import draft_mantle
from agentflows.planning._mantle import plan_mantle
from evalcore.definitions import load_project

CORPUS = Path(__file__).parent / "data" / "corpus"


def _criteria(project_name: str, skill: str, case: str) -> list[str]:
    project = load_project(CORPUS / project_name)
    plan = {b.case: b for b in plan_mantle(project, skill, None).behaviors}
    data = draft_mantle(DraftContext(project, "mantle", plan[case]))
    return [str(c) for c in data["scenario"]["goals"].get("criteria") or []]


def _values(criteria: list[str]) -> list[str]:
    return [c for c in criteria if c.startswith("The values the agent gives for")]


def test_a_recipe_question_states_the_cards_values() -> None:
    # recipes.csv line 5: Cortado,single,2,2,0 ("answer only what they asked (usually
    # shots, milk, pumps)")
    found = _values(_criteria("brewline_shifts", "recipe_help", "happy"))
    assert len(found) == 1
    assert "data/recipes.csv:5" in found[0]
    assert "espresso shots 2, milk oz 2, syrup pumps 0" in found[0]
    assert "build notes" not in found[0]  # the prose does not ask for the whole card


def test_a_status_question_states_both_environments_and_an_action_none() -> None:
    # "Call get_service and say which version runs in each environment"
    found = _values(_criteria("forge_platform", "deployments", "status"))
    assert len(found) == 1 and "staging v0.18.2, prod v0.18.2" in found[0]
    assert not _values(_criteria("forge_platform", "deployments", "deploy"))  # a gated tool
    # list_deploy_history reads deploys, not the catalog the service is named in
    assert not _values(_criteria("forge_platform", "deployments", "history"))
