"""A prohibition criterion only where the case brings its trigger about: no "does not paste
values from logs" in a case that shows no log, no "never deploy a branch name" where the
user gives a tag of the form the rule shows, no "never answer the clinical question" where
the user asks none; the case that runs the tool answering with logs keeps its rule."""

from __future__ import annotations

from functools import cache
from pathlib import Path
from types import SimpleNamespace

from agentflows.drafting import DraftContext
from agentflows.drafting.offline._mantle import draft_mantle
from agentflows.drafting.offline._mantle_triggers import provoked
from agentflows.planning import plan_source
from agentflows.planning._mantle_walk import Walk
from evalcore.definitions import Project, load_project

CORPUS = Path(__file__).parent / "data" / "corpus"


@cache
def _project(name: str) -> Project:
    return load_project(CORPUS / name)


def _criteria(project: str, skill: str, behavior_id: str) -> list[str]:
    loaded = _project(project)
    behaviors = plan_source(loaded, "mantle", skill, None).behaviors
    behavior = next(b for b in behaviors if b.id == behavior_id)
    others = tuple(b.title for b in behaviors if b is not behavior)  # as `generate` drafts it
    data = draft_mantle(DraftContext(loaded, "mantle", behavior, siblings=others))
    return list(data["scenario"].get("goals", {}).get("criteria") or [])


def test_a_rule_on_what_only_an_unrun_tool_answers_with_is_left_out() -> None:
    for behavior in ("deployments:status", "deployments:deploy", "deployments:rollback"):
        assert not [c for c in _criteria("forge_platform", "deployments", behavior) if "log" in c]
    diagnose = _criteria("forge_platform", "deployments", "deployments:diagnose")
    assert [c for c in diagnose if "from logs" in c]


def test_a_rule_against_another_form_is_left_out_where_the_user_gives_the_shown_form() -> None:
    criteria = _criteria("forge_platform", "deployments", "deployments:deploy")
    assert not [c for c in criteria if "branch name" in c]


def test_a_rule_about_a_question_nobody_asks_is_left_out() -> None:
    criteria = _criteria("meadow_pharmacy", "pharmacist_consult", "pharmacist_consult:dosage")
    assert not [c for c in criteria if "clinical question" in c]


def test_the_agents_word_for_its_users_is_no_thing_only_a_tool_answers_with() -> None:
    tidewater = _project("tidewater_core")
    assert tidewater.mantle is not None
    # `lookup_researcher` never runs here, but "researcher" is who the agent serves
    script = SimpleNamespace(prelude=None, walk=Walk(skill="identify_researcher"), other=None)
    rule = "The agent does not try to talk the researcher out of speaking to a person"
    assert provoked(tidewater.mantle, script, [rule], "Can I talk to a person?") == [rule]  # type: ignore[arg-type]
