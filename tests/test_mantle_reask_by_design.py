""" "Does not ask again" only for what nothing on the case's path asks for by design: not a
detail a skill run first collects into its own field (an identity check's policy number),
nor one a prose step is told to ask (which window suits them, which part of the home);
where nothing is left, the criterion is dropped."""

from __future__ import annotations

from pathlib import Path

import pytest

from agentflows.drafting import DraftContext
from agentflows.drafting.offline._mantle import draft_mantle
from agentflows.planning import plan_source
from evalcore.definitions import load_project

HARBOR = Path(__file__).resolve().parent / "data" / "corpus" / "harbor_mutual"


@pytest.fixture(scope="module")
def again() -> list[str]:
    """The "does not ask again" criteria of every file_claim case."""
    project = load_project(HARBOR)
    out: list[str] = []
    for case in plan_source(project, "mantle", "file_claim", None).behaviors:
        data = draft_mantle(DraftContext(project, "mantle", case))
        out += [c for c in data["scenario"]["goals"].get("criteria") or [] if "again" in c]
    return out


def test_a_detail_the_identity_check_collects_itself_is_never_in_ask_again(
    again: list[str],
) -> None:
    """verify_policyholder (run first) collects its own policy_number, and pick_policy asks
    which policy: a correct agent asks for it again."""
    assert again
    assert not [c for c in again if "policy number" in c], again
    # what only this skill asks stays named, in the up-front list and in the path's list
    assert any("first message gave (police report number)" in c for c in again), again
    assert any("incident description" in c for c in again), again
