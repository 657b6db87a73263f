"""A mutant play started from the reference run's kept engine state (`_snapshot.py`,
`_verify_replay.resume_point`) gives the events of the same mutant played from scratch,
over every mutant kind the cases reach, and so does an allowed variant's play started from
the reference run; an engine restored from a kept state plays on as the
engine it was taken from; no state is kept while a skill's procedure runs."""

from __future__ import annotations

import asyncio
from functools import cache
from pathlib import Path

import pytest

from agentflows.generate import _verify_play, build_request, run_generation
from agentflows.generate._verify_play import Played, play, reference, run_case
from agentflows.generate._verify_replay import resume_point
from evalcore.agents.reference import mutants, reached, variants
from evalcore.agents.reference._brain import ModelBrain
from evalcore.agents.reference._engine import ReferenceEngine
from evalcore.agents.reference._snapshot import restore, running, take
from evalcore.agents.reference._target import load
from evalcore.runner import RunCase
from evalcore.yamlio import load_yaml

REPO = Path(__file__).resolve().parents[1]
#: Its skills wait on a sign-in skill the runtime runs for the request (`resolve_with`):
#: the sign-in finishes before the request's skill starts, within the first turn.
PROJECT = REPO / "tests" / "data" / "corpus" / "tidewater_core"


@cache
def _passing(tmp: Path) -> tuple[tuple[RunCase, Played], ...]:
    async def go() -> list[tuple[RunCase, Played]]:
        request = build_request(
            ["instrument_time"],
            project=PROJECT,
            model="offline",
            cases_root=str(tmp / "cases"),
            verify=False,
        )
        await run_generation(request, checkpoints=tmp / "checkpoints.sqlite")
        project = load(PROJECT)
        out = []
        for path in sorted((tmp / "cases").rglob("*.yml")):
            case = run_case(load_yaml(path.read_text(encoding="utf-8")), path, "mantle")[0]
            run = await play(case, reference(project), project)
            if run.status == "passed" and run.replay is not None:
                out.append((case, run))
        return out

    return tuple(asyncio.run(go()))


@pytest.fixture(scope="module")
def passing(tmp_path_factory: pytest.TempPathFactory) -> tuple[tuple[RunCase, Played], ...]:
    found = _passing(tmp_path_factory.mktemp("restore"))
    assert found, "no drafted case passes the reference agent"
    return found


def _events(case: RunCase, mutant, run: Played, *, resumed: bool) -> list[dict]:
    project = load(PROJECT)
    target = reference(project, mutant)
    real = _verify_play.resume_point
    if not resumed:
        _verify_play.resume_point = lambda *args: None  # type: ignore[assignment]
    try:
        return asyncio.run(_verify_play._events(case, target, project, run.replay))
    finally:
        _verify_play.resume_point = real  # type: ignore[assignment]


def test_a_mutant_played_from_a_kept_state_is_the_mutant_played_from_scratch(passing) -> None:
    project = load(PROJECT)
    defs = project.mantle
    assert defs is not None
    kinds: set[str] = set()
    resumed = 0  # plays resumed from a kept state
    for case, run in passing:
        assert run.reached is not None
        for mutant in mutants(project):
            if mutant.equivalent is not None or not reached(mutant, run.reached, defs):
                continue
            point = resume_point(run.replay, mutant, defs)
            if point is None:
                continue
            scratch = _events(case, mutant, run, resumed=False)
            assert _events(case, mutant, run, resumed=True) == scratch, (case.slug, mutant.id)
            kinds.add(mutant.kind)
            resumed += 1
    assert len(kinds) >= 6, kinds
    assert resumed >= 20, resumed


#: What an engine holds that does not change as it plays (the project, caches of it).
_FIXED = {"project", "defs", "brain", "skill_words", "preconditions", "_words", "mutant"}


def _state(engine: ReferenceEngine) -> dict:
    """Everything an engine holds that a conversation changes, frames as plain data."""
    out = {}
    for name, value in vars(engine).items():
        if name in _FIXED:
            continue
        if name == "stack":
            value = [
                {**vars(f), "procedure": f.procedure is not None, "pending": f.pending is not None}
                for f in value
            ]
        elif name == "flags":
            value = value._flags
        out[name] = value
    return out


def test_a_restored_engine_plays_on_as_the_engine_it_was_taken_from(passing) -> None:
    project = load(PROJECT)
    checked = 0
    for case, run in passing:
        assert run.replay is not None
        messages = [step.message or "" for step, _ in run.replay.steps if not step.done]
        for turn, state in run.replay.states.items():
            engine = ReferenceEngine(project, ModelBrain(project))
            restore(engine, state)
            # the same state as an engine that played those turns itself
            played = ReferenceEngine(project, ModelBrain(project))
            played.start((case.setup or {}).get("initial_slots") or {})
            for text in messages[:turn]:
                played.receive(text)
            assert _state(engine) == _state(played), (case.slug, turn)
            for text in messages[turn:]:
                if engine.ended:
                    break
                engine.receive(text)
            assert engine.events == run.events, (case.slug, turn)
            # the kept state is a copy: playing on from it left it as it was
            again = ReferenceEngine(project, ModelBrain(project))
            restore(again, state)
            assert again.events == run.events[: len(again.events)]
            assert len(again.events) == len(state.events)
            checked += 1
    assert checked >= len(passing)


def test_no_state_is_kept_while_a_procedure_runs(passing) -> None:
    project = load(PROJECT)
    case, run = passing[0]
    assert run.replay is not None
    engine = ReferenceEngine(project, ModelBrain(project))
    engine.start((case.setup or {}).get("initial_slots") or {})
    assert take(engine) is not None  # nothing runs before the first message
    seen_running = False
    for step, _ in run.replay.steps:
        if step.done or engine.ended:
            break
        engine.receive(step.message or "")
        if running(engine):
            seen_running = True
            assert take(engine) is None
        else:
            assert take(engine) is not None
    assert seen_running


def test_a_variant_played_from_the_reference_run_is_the_variant_played_from_scratch(
    passing,
) -> None:
    """A variant's play that starts from the reference run (its kept state before the first
    turn that reaches the variant's freedom, its user's steps while the answers are the
    same) gives the run, and the results, of the variant played from scratch; its kept
    opening is the reference run's own entries (compared by identity)."""
    project = load(PROJECT)
    defs = project.mantle
    assert defs is not None
    kinds: set[str] = set()
    resumed = 0
    for case, run in passing:
        assert run.reached is not None
        for variant in variants(project):
            if variant.site not in run.reached:
                continue
            target = reference(project, variant=variant)
            scratch = asyncio.run(play(case, target, project))
            from_run = asyncio.run(play(case, target, project, run))
            assert from_run.events == scratch.events, (case.slug, variant.id)
            assert from_run.assertions == scratch.assertions, (case.slug, variant.id)
            assert (from_run.status, from_run.notes) == (scratch.status, scratch.notes)
            kinds.add(variant.kind)
            point = resume_point(run.replay, None, defs, variant)
            if point is not None:
                # the kept opening is the reference run's own entries, not copies of them
                opening = len(point[1].events)
                kept = zip(from_run.events[:opening], run.events[:opening], strict=True)
                assert all(a is b for a, b in kept)
                resumed += 1
    assert len(kinds) >= 2, kinds
    assert resumed >= 5, resumed
