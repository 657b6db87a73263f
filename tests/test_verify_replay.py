"""A mutant's play driven on the engine, with the reference run's opening steps replayed
(`agentflows/generate/_verify_replay.py`), gives the events of the runner's full play of
that mutant: for mutants of every kind whose sites the reference run passed, on the bank's
cases. And the offline simulator resumed from a state goes on as the one it was taken from.
"""

from __future__ import annotations

import asyncio
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from agentflows.generate import _verify_play
from agentflows.generate._verify_play import Played, play, reference, run_case
from agentflows.generate._verify_replay import Replay, drive
from evalcore.agents.reference import KINDS, Mutant, mutants, reached
from evalcore.agents.reference._target import load
from evalcore.assertions import parse_events
from evalcore.runner import RunCase
from evalcore.simulator import FactSimulator, Utterance
from evalcore.yamlio import load_yaml

REPO = Path(__file__).resolve().parents[1]
BANK = REPO / "examples" / "bank"
CASE_FILES = sorted((BANK / "eval" / "scenarios").glob("*.yml")) + sorted(
    (REPO / "generated_cases" / "mantle").glob("*/*.yml")
)
PER_KIND = 3


def _case(path: Path) -> RunCase:
    return run_case(load_yaml(path.read_text(encoding="utf-8")), path, "mantle")[0]


@cache
def _passing() -> list[tuple[RunCase, Played]]:
    project = load(BANK)
    out = []
    for path in CASE_FILES:
        case = _case(path)
        run = asyncio.run(play(case, reference(project), project))
        if run.status == "passed":
            out.append((case, run))
    return out


def _driven(case: RunCase, mutant: Mutant, replay: Replay | None) -> list[dict]:
    project = load(BANK)
    target = reference(project, mutant)

    async def go() -> list[dict]:
        session = await target.open(case, 1)
        simulator = _verify_play._simulator(case, project)
        assert case.simulate is not None
        run = await drive(
            session.engine,
            session.setup,
            simulator,
            replay,
            case_setup=case.setup,
            max_turns=_verify_play.MAX_TURNS,
            simulate_cap=case.simulate.max_turns,
        )
        return run.events

    return asyncio.run(go())


class _Plain:
    """A target the verifier cannot drive: its plays go through the runner's conversation."""

    def __init__(self, target: Any) -> None:
        self.target = target

    async def open(self, case: RunCase, run_index: int) -> Any:
        return await self.target.open(case, run_index)


def _runner_play(case: RunCase, mutant: Mutant | None = None) -> Played:
    project = load(BANK)
    return asyncio.run(play(case, _Plain(reference(project, mutant)), project))


@pytest.mark.parametrize("kind", KINDS)
def test_a_driven_mutant_play_has_the_runners_events(kind: str) -> None:
    project = load(BANK)
    defs = project.mantle
    assert defs is not None
    of_kind = [m for m in mutants(project) if m.kind == kind and m.equivalent is None]
    checked = replayed = 0
    # fact-sheet cases (their runs carry a replay) first
    for case, run in sorted(_passing(), key=lambda pair: pair[1].replay is None):
        for mutant in of_kind:
            if checked >= PER_KIND or run.reached is None:
                break
            if not reached(mutant, run.reached, defs):
                continue
            full = _runner_play(case, mutant)
            if full.status == "errored":
                continue
            if run.replay is not None:  # a fact-sheet case: its opening steps replayed
                assert _driven(case, mutant, run.replay) == full.events, (case.slug, mutant.id)
                replayed += 1
            assert _driven(case, mutant, None) == full.events, (case.slug, mutant.id)
            checked += 1
    if not checked:
        pytest.skip(f"no bank case passes a {kind} mutant's site")
    assert replayed, "no fact-sheet case was replayed"


def test_a_driven_play_is_the_runners_play() -> None:
    """Status, assertions, events, transcript, notes and fault sites: all the same."""
    for case, run in _passing()[:6]:
        full = _runner_play(case)
        assert (run.status, run.assertions, run.events) == (
            full.status,
            full.assertions,
            full.events,
        )
        assert (run.transcript, run.notes, run.reached) == (
            full.transcript,
            full.notes,
            full.reached,
        )
        assert (run.replay is None) == (full.replay is None)
        if run.replay is not None and full.replay is not None:
            assert run.replay.answers == full.replay.answers
            assert run.replay.steps == full.replay.steps


def _replayed() -> tuple[RunCase, Played]:
    """The first passing case whose simulator can say its state (a fact-sheet context)."""
    return next((c, r) for c, r in _passing() if r.replay is not None)


def test_the_replay_records_every_turn_and_step() -> None:
    _, run = _replayed()
    assert run.replay is not None
    users = [text for role, text in run.transcript if role == "user"]
    # the start turn, then one answer per user turn; one step per message, then "done"
    assert len(run.replay.answers) == len(users) + 1
    assert [s.message for s, _ in run.replay.steps[: len(users)]] == users
    assert all(not s.done for s, _ in run.replay.steps[: len(users)])


def test_a_resumed_simulator_goes_on_as_the_original() -> None:
    case, _ = _replayed()
    project = load(BANK)
    simulator = _verify_play._simulator(case, project)
    assert isinstance(simulator, FactSimulator)
    history = [Utterance(0, "agent", "Hi! How can I help?")]
    agent = ["What is your card's last four digits?", "Shall I go ahead?", "Anything else?"]
    original = simulator.fresh()
    steps = [asyncio.run(original.next_step(history))]
    state = original.state()
    resumed = simulator.resumed(state)
    for line in agent:
        history = [*history, Utterance(len(steps), "user", steps[-1].message)]
        history.append(Utterance(len(steps), "agent", line))
        assert asyncio.run(resumed.next_step(history)) == asyncio.run(original.next_step(history))
    assert resumed.state() == original.state()
    # the state handed out is a copy: going on changed neither it nor another resumed one
    assert state["_turns"] == 1 and simulator.resumed(state).state()["_turns"] == 1


def test_a_log_parsed_from_a_shared_opening_is_the_log_parsed_whole() -> None:

    _, run = _replayed()
    whole = parse_events(run.events)
    for cut in (1, len(run.events) // 2, len(run.events) - 1):
        rest = parse_events(run.events[cut:], first=cut, turn=whole[cut - 1].turn)
        assert whole[:cut] + rest == whole


def test_a_mutant_is_killed_whatever_order_its_checks_are_tried_in() -> None:
    from agentflows.generate._verify_play import compiled
    from agentflows.generate._verify_verdict import fails, parsed_log

    project = load(BANK)
    defs = project.mantle
    assert defs is not None
    seen = {True: 0, False: 0}
    for case, run in _passing()[:8]:
        checks = compiled(case.checks or [])
        if not checks or run.reached is None:
            continue
        for mutant in [m for m in mutants(project) if m.equivalent is None][:40]:
            if not reached(mutant, run.reached, defs):
                continue
            events = _driven(case, mutant, run.replay)
            if run.parsed is None:  # as `_verify_play` keeps it for the case's mutant plays
                run.parsed = parse_events(list(run.events))
            parsed = parsed_log(events, run)
            assert parsed == parse_events(events)
            expected = any(not check(parsed).passed for check in checks)
            assert fails(checks, events, run) == expected
            assert fails(checks, events, run) == expected  # again, in the order it left
            seen[expected] += 1
    assert seen[True] and seen[False]


def test_a_flushed_session_hands_out_the_engines_own_log_and_close_copies_it() -> None:
    """The verifier reads the engine's log as it is (no copy); closing the session copies
    the same flushed log and notes into its record."""
    case, _ = _passing()[0]
    project = load(BANK)

    async def go() -> None:
        session = await reference(project).open(case, 1)
        await drive(
            session.engine,
            session.setup,
            _verify_play._simulator(case, project),
            None,
            case_setup=case.setup,
            max_turns=_verify_play.MAX_TURNS,
            simulate_cap=case.simulate.max_turns if case.simulate else None,
        )
        events, notes = session.flushed()
        assert events is session.engine.events and notes is session.engine.notes
        final = await session.close()
        assert final.events == events and final.events is not events
        assert final.meta["notes"] == notes

    asyncio.run(go())
