"""A skill's own `utter:` rules are what the runtime sends whatever the model decides: on
activation (a count's intro) or as a `when:` comes true (the cryo-EM note once the
instrument is the cryo-EM). A happy path whose walk says one asserts it, so an agent that
skips the branch's note fails; a branch the case does not take asserts no note of it."""

from __future__ import annotations

from pathlib import Path

import pytest

from agentflows.drafting import DraftContext
from agentflows.drafting.offline._mantle import draft_mantle
from agentflows.planning import plan_source
from evalcore.definitions import load_project

CORPUS = Path(__file__).resolve().parent / "data" / "corpus"


def _said(project_name: str, skill: str, case: str) -> list[str]:
    project = load_project(CORPUS / project_name)
    behaviors = {b.case: b for b in plan_source(project, "mantle", skill, None).behaviors}
    goals = draft_mantle(DraftContext(project, "mantle", behaviors[case]))["scenario"]["goals"]
    return [a["bot_uttered"]["utter_name"] for a in goals["assertions"] if "bot_uttered" in a]


@pytest.mark.parametrize(
    ("project", "skill", "case", "note"),
    [
        ("tidewater_core", "instrument_time", "instrument_cryo_em", "utter_cryo_em_note"),
        ("northstar_exec", "daily_briefing", "happy", "utter_briefing_intro"),
    ],
)
def test_the_happy_path_asserts_the_rule_its_walk_fires(
    project: str, skill: str, case: str, note: str
) -> None:
    assert note in _said(project, skill, case)


def test_a_when_rule_of_another_branch_is_not_asserted() -> None:
    plans = plan_source(load_project(CORPUS / "tidewater_core"), "mantle", "instrument_time", None)
    other = next(
        b.case
        for b in plans.behaviors
        if b.case.startswith("instrument_") and b.case != "instrument_cryo_em"
    )
    assert "utter_cryo_em_note" not in _said("tidewater_core", "instrument_time", other)
