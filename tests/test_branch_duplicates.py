"""A skill that routes on two fields plans one happy path per set of choices: the value one
field takes by default can be the branch another field plays ("book" with the base
instrument is the "confocal" case), and two cases on the same choices differ only in
filler (a blind reviewer rejected tidewater_core's second one as a duplicate)."""

from __future__ import annotations

from pathlib import Path

from agentflows.planning import plan_source
from evalcore.definitions import load_project

CORPUS = Path(__file__).parent / "data" / "corpus"


def _happy_choices(project: str, skill: str) -> list[dict]:
    plan = plan_source(load_project(CORPUS / project), "mantle", skill, None)
    return [b.facts.get("values") for b in plan.behaviors if b.type == "happy_path"]


def test_no_two_happy_paths_of_a_two_field_skill_play_the_same_choices() -> None:
    for skill in ("instrument_time", "sample_drop_off"):
        choices = _happy_choices("tidewater_core", skill)
        assert len(choices) >= 3, (skill, choices)
        # both fields still get their branches
        assert len({key for c in choices for key, value in c.items() if value}) == 2, choices
        duplicates = [c for i, c in enumerate(choices) if c in choices[:i]]
        assert not duplicates, (skill, duplicates)
