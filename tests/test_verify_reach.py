"""A mutant whose fault sites the reference run never passed takes the reference verdict
without a play (`evalcore/agents/reference/_reach.py`). For every mutant kind: such a
mutant, played in full anyway, gives the reference run's events move for move (so the same
verdict: not killed), and a mutant whose site the run did pass is still played. And the
verify step reports the same verdicts with the shortcut as without it."""

from __future__ import annotations

import asyncio
from functools import cache
from pathlib import Path

import pytest

import agentflows.generate._verify_mantle as verify_mantle
from agentflows.generate._verify_play import Played, kills, play, reference, run_case
from evalcore.agents.reference import KINDS, Mutant, mutants, reached
from evalcore.agents.reference._reach import SITES, sites
from evalcore.agents.reference._target import load
from evalcore.yamlio import load_yaml

REPO = Path(__file__).resolve().parents[1]
BANK = REPO / "examples" / "bank"
#: Cases the bank ships: hand-written scenarios and the committed generated suite.
CASE_FILES = sorted((BANK / "eval" / "scenarios").glob("*.yml")) + sorted(
    (REPO / "generated_cases" / "mantle").glob("*/*.yml")
)
PER_KIND = 2


def _play(path: Path, mutant: Mutant | None = None) -> Played:
    project = load(BANK)
    case = run_case(load_yaml(path.read_text(encoding="utf-8")), path, "mantle")[0]
    return asyncio.run(play(case, reference(project, mutant), project))


@cache
def _passing() -> dict[Path, Played]:
    """The bank cases the reference agent passes, with their reference runs."""
    runs = {path: _play(path) for path in CASE_FILES}
    return {path: run for path, run in runs.items() if run.status == "passed"}


@cache
def _pairs(kind: str) -> tuple[list[tuple[Path, Mutant]], list[tuple[Path, Mutant]]]:
    """(case, mutant) pairs of `kind` whose sites the case's reference run did not / did
    pass, a few of each, in a stable order."""
    project = load(BANK)
    defs = project.mantle
    assert defs is not None
    of_kind = [m for m in mutants(project) if m.kind == kind and m.equivalent is None]
    unreached: list[tuple[Path, Mutant]] = []
    hit: list[tuple[Path, Mutant]] = []
    for path, run in _passing().items():
        assert run.reached is not None
        for mutant in of_kind:
            group = hit if reached(mutant, run.reached, defs) else unreached
            if len(group) < PER_KIND:
                group.append((path, mutant))
    return unreached, hit


def test_every_kind_has_its_sites():
    assert set(KINDS) == SITES


@pytest.mark.parametrize("kind", KINDS)
def test_an_unreached_mutant_plays_exactly_like_the_reference_agent(kind: str):
    unreached, _ = _pairs(kind)
    assert unreached, f"no bank case leaves a {kind} mutant's sites unpassed"
    for path, mutant in unreached:
        full = _play(path, mutant)
        ref = _passing()[path]
        assert full.status == "passed", (path.name, mutant.id)
        assert full.events == ref.events, (path.name, mutant.id)
        assert full.transcript == ref.transcript, (path.name, mutant.id)


@pytest.mark.parametrize("kind", KINDS)
def test_a_mutant_whose_site_the_run_passed_is_played(kind: str):
    _, hit = _pairs(kind)
    assert hit, f"no bank case passes a {kind} mutant's sites"
    project = load(BANK)
    for path, mutant in hit:
        passed = _passing()[path].reached or set()
        assert any(site in passed for site in sites(mutant, project.mantle))


@pytest.mark.parametrize("kind", KINDS)
def test_the_lean_kill_decision_agrees_with_a_full_play(kind: str):
    """`kills` (no checks for a run equal to the reference one, checks stopping at the
    first failure) says what a full play's status says."""
    _, hit = _pairs(kind)
    project = load(BANK)
    for path, mutant in hit:
        case = run_case(load_yaml(path.read_text(encoding="utf-8")), path, "mantle")[0]
        target = reference(project, mutant)
        lean = asyncio.run(kills(case, target, project, _passing()[path]))
        assert lean == (_play(path, mutant).status == "failed"), (path.name, mutant.id)


def test_a_kind_without_known_sites_is_always_played():
    project = load(BANK)
    assert reached(Mutant("a_kind_added_later", "x", "card_replace"), set(), project.mantle)


def test_the_verify_step_reports_the_same_with_and_without_the_shortcut(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
):
    from agentflows.generate import build_request, run_generation

    plays = {"count": 0}
    real_kills = verify_mantle.kills

    async def counted(*args, **kwargs):
        plays["count"] += 1
        return await real_kills(*args, **kwargs)

    monkeypatch.setattr(verify_mantle, "kills", counted)  # the mutant plays

    def generate(name: str) -> tuple[dict, int]:
        plays["count"] = 0
        request = build_request(
            ["dispute_charge"],
            project=BANK,
            model="offline",
            cases_root=str(tmp_path / name / "cases"),
            verify=True,
        )
        report = asyncio.run(run_generation(request, checkpoints=tmp_path / f"{name}.sqlite"))
        return {Path(c["path"]).name: c["verification"] for c in report["cases"]}, plays["count"]

    shortcut, fewer = generate("shortcut")
    monkeypatch.setattr(verify_mantle, "reached", lambda *_: True)  # play every mutant
    full, every = generate("full")
    assert shortcut == full
    assert any(v["mutants_killed"] for v in full.values())
    assert fewer < every  # the shortcut did leave plays out
