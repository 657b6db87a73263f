"""A mutant play's verdict decided on what its log does not share with the reference run's
(`agentflows/generate/_verify_verdict.py`) is the verdict of every assertion checked on the
whole log, for every mutant of `tidewater_core` that its drafted `instrument_time` cases
reach; a wrong shortcut is caught; a run's own results are the runner's, read alone or
with the reference run's parse and checks; and events parsed the fast way are the records
the classes' constructors make."""

from __future__ import annotations

import asyncio
import dataclasses
from functools import cache
from pathlib import Path

import pytest

from agentflows.generate import _verify_play, _verify_verdict, build_request, run_generation
from agentflows.generate._verify_play import Played, compiled, play, reference, run_case
from agentflows.generate._verify_verdict import checked_mantle, fails
from evalcore.agents.reference import mutants, reached
from evalcore.agents.reference._target import load
from evalcore.assertions import evaluate_mantle, parse_events
from evalcore.runner import RunCase
from evalcore.yamlio import load_yaml

REPO = Path(__file__).resolve().parents[1]
PROJECT = REPO / "tests" / "data" / "corpus" / "tidewater_core"


@cache
def _plays(tmp: Path) -> tuple[tuple[RunCase, Played, tuple[list[dict], ...]], ...]:
    """Each passing drafted case, its reference run, and the events of every mutant its
    run reaches (played as verification plays them: from the kept state)."""

    async def go() -> list[tuple[RunCase, Played, tuple[list[dict], ...]]]:
        request = build_request(
            ["instrument_time"],
            project=PROJECT,
            model="offline",
            cases_root=str(tmp / "cases"),
            verify=False,
        )
        await run_generation(request, checkpoints=tmp / "checkpoints.sqlite")
        project = load(PROJECT)
        defs = project.mantle
        assert defs is not None
        out = []
        for path in sorted((tmp / "cases").rglob("*.yml")):
            case = run_case(load_yaml(path.read_text(encoding="utf-8")), path, "mantle")[0]
            run = await play(case, reference(project), project)
            if run.status != "passed" or run.reached is None:
                continue
            logs = []
            for mutant in mutants(project):
                if mutant.equivalent is not None or not reached(mutant, run.reached, defs):
                    continue
                target = reference(project, mutant)
                logs.append(await _verify_play._events(case, target, project, run.replay))
            out.append((case, run, tuple(logs)))
        return out

    return tuple(asyncio.run(go()))


@pytest.fixture(scope="module")
def plays(tmp_path_factory: pytest.TempPathFactory):
    found = _plays(tmp_path_factory.mktemp("verdict"))
    assert found, "no drafted case passes the reference agent"
    return found


def _whole(case: RunCase, events: list[dict]) -> bool:
    """Whether any assertion fails, each checked on the whole log parsed afresh."""
    return not all(r.passed for r in evaluate_mantle(case.checks, parse_events(events)))


def _mismatches(plays) -> tuple[int, dict[bool, int]]:
    wrong, seen = 0, {True: 0, False: 0}
    for case, run, logs in plays:
        checks = compiled(case.checks or [])
        assert checks is not None
        for events in logs:
            expected = _whole(case, events)
            seen[expected] += 1
            wrong += fails(checks, events, run) != expected
    return wrong, seen


def test_a_verdict_on_the_unshared_events_is_the_whole_logs_verdict(plays) -> None:
    wrong, seen = _mismatches(plays)
    assert wrong == 0
    assert seen[True] >= 50 and seen[False] >= 10, seen  # kills and survivors both checked


def test_a_wrong_shortcut_is_caught(plays, monkeypatch: pytest.MonkeyPatch) -> None:
    # as if every pattern had matched inside the shared opening: nothing after it is read
    monkeypatch.setattr(
        _verify_verdict, "_firsts", lambda passing, index, check: (-1,) * len(check.every)
    )
    for _, run, _ in plays:
        run.order = None
    wrong, _ = _mismatches(plays)
    assert wrong > 0


def test_a_runs_results_are_the_runners(plays) -> None:
    failing = 0
    for case, run, logs in plays:
        for events in (run.events, *logs[:6]):
            expected = [r.to_json() for r in evaluate_mantle(case.checks, events)]
            # read on its own, and with the reference run's parse and checks (a variant's run)
            for passing in (None, run):
                checked = checked_mantle(case, events, passing)
                assert checked is not None
                parsed, results, _ = checked
                assert parsed == parse_events(events)
                assert results == expected  # details of passing and failing assertions alike
            failing += any(not r["passed"] for r in results)
    assert failing >= 10


def test_parsed_events_are_the_records_their_constructors_make(plays) -> None:
    for _, run, logs in plays[:4]:
        for events in (run.events, *logs):
            for event in parse_events(events):
                values = {f.name: getattr(event, f.name) for f in dataclasses.fields(event)}
                made = type(event)(**values)
                assert made == event and repr(made) == repr(event)
                assert vars(made) == vars(event)
