"""A skill other skills run first (an identity check) is asked for in a caller's words from
its description, never by its name: "verify the policyholder" is the agent's step, not what
a caller says.

Before: "You want to verify the policyholder." / "You want to verify the patient."
"""

from __future__ import annotations

from pathlib import Path

import yaml
from skill_model_fixtures import generate_offline

from agentflows.drafting.offline._mantle_intent import intent_clause, own_opening
from evalcore.definitions import is_prerequisite, load_project

CORPUS = Path(__file__).parent / "data" / "corpus"


def _defs(name: str):
    defs = load_project(CORPUS / name).mantle
    assert defs is not None
    return defs


def test_a_skill_others_run_first_is_a_prerequisite() -> None:
    defs = _defs("harbor_mutual")
    assert is_prerequisite(defs, "verify_policyholder")  # "run @skill.verify_policyholder first"
    assert not is_prerequisite(defs, "file_claim")
    assert not is_prerequisite(defs, "adjuster_handoff")  # offered, not run first


def test_the_goal_is_the_callers_request_from_the_description() -> None:
    defs = _defs("harbor_mutual")
    skill = defs.skills["verify_policyholder"]
    # 'a caller who says "can you check it's me on file" also lands here'
    assert intent_clause(defs, skill) == "want the agent to check it's you on file"
    assert own_opening(defs, skill, "happy_path", {}) == "Can you check it's me on file?"
    # a skill no other runs first keeps its name's verb phrase
    assert intent_clause(defs, defs.skills["file_claim"]) == "want to file a claim"


def test_a_caller_the_description_speaks_of_gives_the_goal() -> None:
    defs = _defs("meadow_pharmacy")
    # "a caller who asks to be identified lands here too"
    assert intent_clause(defs, defs.skills["verify_patient"]) == "want to be identified"


def test_the_identity_checks_case_speaks_as_a_caller(tmp_path: Path) -> None:
    generate_offline(CORPUS / "harbor_mutual", ["verify_policyholder"], tmp_path)
    paths = sorted((tmp_path / "cases").rglob("*happy_path.yml"))
    assert paths
    for path in paths:
        context = yaml.safe_load(path.read_text())["scenario"]["simulation_context"]
        assert "verify the policyholder" not in context, context
        assert 'Open with: "Can you check it\'s me on file?"' in context


def test_a_sign_in_that_resolves_a_precondition_is_asked_for_as_a_caller_would() -> None:
    # agent.yml: `badge_checked: {resolve_with: identify_researcher}`; two skills wait on it
    defs = _defs("tidewater_core")
    assert is_prerequisite(defs, "identify_researcher")
    skill = defs.skills["identify_researcher"]
    # 'Sign in to the facility with a university badge number: "I need to log in", ...'
    assert intent_clause(defs, skill) == "want to log in"
    assert own_opening(defs, skill, "happy_path", {}) == "I need to log in."
