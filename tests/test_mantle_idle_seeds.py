"""A seed that only opens a gate the case's path never meets is not seeded: a change freeze
gates a promotion to prod (and a prod reminder), so a staging deploy, a rollback or a
status check starts without it, while a promotion, accepted or declined, keeps it."""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Any

from agentflows.drafting.offline._mantle_script import build_script
from agentflows.planning import plan_source
from evalcore.definitions import Project, load_project

FORGE = Path(__file__).parent / "data" / "corpus" / "forge_platform"
FREEZE = "project.change_freeze_active"


@cache
def _forge() -> Project:
    return load_project(FORGE)


def _seeds(behavior_id: str) -> dict[str, Any]:
    behaviors = plan_source(_forge(), "mantle", "deployments", None).behaviors
    behavior = next(b for b in behaviors if b.id == behavior_id)
    return dict(build_script(_forge(), behavior).seeds)


def test_a_gate_seed_the_path_never_meets_is_not_seeded() -> None:
    for behavior in ("deployments:deploy", "deployments:rollback", "deployments:status"):
        seeds = _seeds(behavior)
        assert FREEZE not in seeds, behavior
        assert seeds.get("project.sso_verified") is True  # the precondition's stays
    for behavior in ("deployments:promote", "deployments:refused_promote_release"):
        assert _seeds(behavior).get(FREEZE) is True, behavior


def test_a_gate_seed_the_prose_reads_stays() -> None:
    oakline = load_project(FORGE.parent / "oakline_residents")
    behaviors = plan_source(oakline, "mantle", "rent_account", None).behaviors
    behavior = next(b for b in behaviors if b.id == "rent_account:balance")
    # "an occupant who is not on the lease (@memory.project.lease_holder is false) can only
    # see whether rent for the month is paid": the balance case is a lease holder's
    assert build_script(oakline, behavior).seeds.get("project.lease_holder") is True


def test_a_step_that_names_its_next_step_plainly_is_read_too() -> None:
    brewline = load_project(FORGE.parent / "brewline_shifts")
    for behavior in plan_source(brewline, "mantle", "shift_swap", None).behaviors[:2]:
        assert build_script(brewline, behavior).seeds is not None  # `next: read_back`
