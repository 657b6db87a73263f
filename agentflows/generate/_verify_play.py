"""Play one in-memory case against an in-process target, as `casegen run` does, but lean.

A verification plays each draft dozens of times (the reference agent, then each mutant on
its path), so the runner's parts that only a results folder needs (the run record, its
redaction, latency figures, the judge) are left out: the same simulator, conversation loop,
event log and dialect checks decide the verdict. Targets are built once per project and
mutant (building one reads the project's file list).
"""

from __future__ import annotations

import contextlib
import copy
import dataclasses
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from evalcore.agents.reference import Mutant, ReferenceTarget, Variant
from evalcore.assertions import compiled, evaluate_one, parse_events
from evalcore.definitions import Project
from evalcore.dialects import get_dialect
from evalcore.runner import (
    Conversation,
    RunCase,
    RunTrace,
    as_run_cases,
    evaluate_checks,
    event_log,
    message_text,
)
from evalcore.runner import play as converse
from evalcore.simulator import SimulatorSettings, SimulatorStep, make_simulator

from ._verify_replay import Driven, Recording, Replay, drive, recordable, resume_point
from ._verify_verdict import checked_mantle, fails, parsed_log, shared

#: The verifier's limits: in-process targets answer in milliseconds.
MAX_TURNS = 30
TURN_TIMEOUT_S = 30.0


@dataclass
class Played:
    status: str
    """passed / failed / errored."""
    assertions: list[dict[str, Any]] = field(default_factory=list)
    events: list[dict[str, Any]] = field(default_factory=list)
    transcript: list[tuple[str, str]] = field(default_factory=list)
    """`(role, text)` per line."""
    notes: list[str] = field(default_factory=list)
    error: str | None = None
    reached: set[tuple[str, str | None]] | None = None
    """The fault sites the run passed (a reference agent's run; None for other targets)."""
    replay: Replay | None = None
    """What the run said and asked per turn, for its mutant plays (`_verify_replay`)."""
    parsed: tuple[Any, ...] | None = None
    """`events` parsed, once its mutant plays need it."""
    order: list[int] | None = None
    """The order its mutant plays try the case's checks in (`_verify_verdict`)."""
    firsts: dict[int, tuple[int, ...]] = field(default_factory=dict)
    """Per check: where `events` first matches each of its patterns (`_verify_verdict`)."""
    checks: list[Any] | None = None
    """The case's assertions as `compiled` checks (a Mantle run's), read once for the run
    and the case's variant and mutant plays."""
    steps: list[SimulatorStep] = field(default_factory=list)
    """The simulated user's decisions, in order (a driven run's; what a repair's findings
    say about the user: a fact it lacked, the line after which it stopped)."""

    @property
    def failing(self) -> list[dict[str, Any]]:
        return [a for a in self.assertions if not a.get("passed")]


def run_case(data: dict[str, Any], path: Path, dialect: str) -> list[RunCase]:
    """The run cases of an in-memory document (a base44 file holds several)."""
    return as_run_cases(data, path, get_dialect(dialect))


_TARGETS: dict[tuple[str, str | None, str | None], ReferenceTarget] = {}
#: the project reading each folder's targets were built for: a later `generate` in the same
#: process (the MCP server) reads the project again, and its verification must play that
#: reading, not the one an earlier command found
_READ_FOR: dict[str, Project] = {}


def reference(
    project: Project, mutant: Mutant | None = None, *, variant: Variant | None = None
) -> ReferenceTarget:
    """`mantle:<project>[?mutant=…]` (or one of its allowed variants), built once per
    reading of the project."""
    root = str(project.root)
    if _READ_FOR.get(root) is not project:
        for stale in [k for k in _TARGETS if k[0] == root]:
            del _TARGETS[stale]
        _READ_FOR[root] = project
    key = (root, mutant.id if mutant else None, variant.id if variant else None)
    target = _TARGETS.get(key)
    if target is None:
        base = _TARGETS.get((root, None, None)) or ReferenceTarget(project.root, project=project)
        _TARGETS[(root, None, None)] = base
        # Reading the project's file list again per mutant costs more than the play: a
        # mutant's target is the reference target with its one fault named.
        target = copy.copy(base)
        target.mutant = mutant
        target.variant = variant
        target.spec = base.spec + (f"?mutant={mutant.id}" if mutant else "")
        _TARGETS[key] = target
    return target


async def _converse(case: RunCase, target: Any, project: Project | None) -> _Run:
    """The conversation of `case` with `target` and the offline simulator (raises on the
    agent's or the simulator's failure; the caller makes it an `errored` result)."""
    session = None
    try:
        simulator = _simulator(case, project)
        if recordable(simulator):
            simulator = Recording(simulator)
        session = await target.open(case, 1)
        reached = getattr(getattr(session, "engine", None), "reached", None)
        conversation = Conversation(session, TURN_TIMEOUT_S)
        await converse(conversation, case, simulator, max_turns=MAX_TURNS)
        final = await session.close()
        session = None
    except Exception:
        if session is not None:
            with contextlib.suppress(Exception):  # the first failure is the one to report
                await session.close()
        raise
    events = event_log(conversation.turns, final, started_at=time.time())
    replay = None
    if isinstance(simulator, Recording):
        answers = [
            ([message_text(m) for m in t.reply.messages], t.reply.ended)
            for t in conversation.turns
            if t.reply is not None
        ]
        replay = Replay(answers, simulator.steps)
    return _Run(conversation, final, events, reached, replay)


_SIMULATORS: dict[tuple[int, int], tuple[RunCase, Project | None, Any]] = {}


def _simulator(case: RunCase, project: Project | None) -> Any:
    """A fresh simulator for `case`: one that can start afresh (`fresh()`) is built once
    per case object and project (the mutant plays of a draft share its case object)."""
    if case.simulate is None:
        return None
    key = (id(case), id(project))
    kept = _SIMULATORS.get(key)
    if kept is not None and kept[0] is case and kept[1] is project:
        return kept[2].fresh()
    settings = SimulatorSettings(project=project)
    simulator = make_simulator(case.simulate, dialect=case.dialect, settings=settings)
    if not callable(getattr(simulator, "fresh", None)):
        return simulator
    if len(_SIMULATORS) >= 64:  # drafts are verified a few at a time
        _SIMULATORS.clear()
    _SIMULATORS[key] = (case, project, simulator)
    return simulator.fresh()


@dataclass
class _Run:
    conversation: Any
    final: Any
    events: list[dict[str, Any]]
    reached: set[tuple[str, str | None]] | None
    replay: Replay | None = None


async def play(
    case: RunCase, target: Any, project: Project | None, passing: Played | None = None
) -> Played:
    """One run of `case` against `target` with the offline simulator; never raises for the
    agent's or the simulator's failures (they make an `errored` result).

    `passing`: the reference agent's run of this same case, when `target` is one of its
    allowed variants: the variant's run makes every choice that run made up to the first
    turn that reaches its freedom (`Variant.site`), so it starts from that run's state
    before that turn and takes its user's steps while the answers are the same, as a
    mutant play does (`_verify_replay`). The run is the same; what it keeps of itself is
    less (no replay or simulator steps of its own: nothing plays from a variant's run)."""
    if _drivable(case, target):
        with contextlib.suppress(Exception):  # the runner's play below says what failed
            return await _driven(case, target, project, passing)
    try:
        run = await _converse(case, target, project)
        trace = RunTrace(
            case=case,
            run_index=1,
            turns=tuple(run.conversation.turns),
            events=tuple(run.events),
            transcript=tuple(run.conversation.history()),
            final=run.final,
        )
        results = [r.to_json() for r in evaluate_checks(case.checks, trace, dialect=case.dialect)]
    except Exception as exc:  # a verifier failure never fails generation
        return Played("errored", error=f"{type(exc).__name__}: {exc}")
    return Played(
        "passed" if all(r["passed"] for r in results) else "failed",
        assertions=results,
        events=list(run.events),
        transcript=[(u.role, u.text) for u in trace.transcript],
        notes=list((run.final.meta or {}).get("notes") or []),
        reached=run.reached,
        replay=run.replay,
    )


async def kills(
    case: RunCase,
    target: Any,
    project: Project | None,
    passing: Played,
    checks: list[Any] | None = None,
) -> bool:
    """Whether a Mantle `case`, which `passing` (the reference agent's run of it) passes,
    fails against `target`: `play(...).status == "failed"`, decided with less work. Events
    equal to `passing`'s give the same verdict (the checks read only the events), so they
    are not checked again; otherwise the checks (`checks`: the case's assertions as
    `compiled` checks, read once for all its plays) are decided on what the mutant's events
    do not share with `passing`'s, without failure messages (`_verify_verdict`), and stop at
    the first failing one (a kill needs one). A run that errors kills nothing, as in `play`."""
    try:
        events = await _events(case, target, project, passing.replay)
        same = shared(events, passing.events)
        if (same == len(events) == len(passing.events)) or not case.checks:
            return False
        if checks is not None:
            return fails(checks, events, passing, same)
        if passing.parsed is None:  # parsed once for all its mutant plays
            passing.parsed = parse_events(list(passing.events))
        parsed = parsed_log(events, passing, same)
        return any(not evaluate_one(i, item, parsed).passed for i, item in enumerate(case.checks))
    except Exception:  # an errored run kills nothing
        return False


def _drivable(case: RunCase, target: Any) -> bool:
    """A `mantle:` reference target and a case without a script: its runs can be driven on
    the engine (`_verify_replay.drive`) instead of through the runner's conversation."""
    return (
        isinstance(target, ReferenceTarget)
        and not case.script
        and not case.prompt
        and case.simulate is not None
    )


async def _drive(
    case: RunCase,
    target: Any,
    project: Project | None,
    simulator: Any,
    replay: Replay | None,
    *,
    record: bool = False,
) -> tuple[Any, Driven]:
    session = await target.open(case, 1)
    assert case.simulate is not None
    defs = project.mantle if project is not None else None
    run = await drive(
        session.engine,
        session.setup,
        simulator,
        replay,
        case_setup=case.setup,
        max_turns=MAX_TURNS,
        simulate_cap=case.simulate.max_turns,
        record=record,
        resume=(
            resume_point(replay, target.mutant, defs, target.variant) if defs is not None else None
        ),
    )
    return session, run


async def _driven(
    case: RunCase, target: Any, project: Project | None, passing: Played | None = None
) -> Played:
    """`play` for a drivable case: the same checks on the same events and transcript."""
    replay = passing.replay if passing is not None and target.variant is not None else None
    recording: Recording | None = None
    if replay is not None:
        session, run = await _drive(case, target, project, _Later(case, project), replay)
    else:
        simulator = _simulator(case, project)
        recording = Recording(simulator) if recordable(simulator) else None
        session, run = await _drive(
            case, target, project, recording or simulator, None, record=recording is not None
        )
    # the engine's own log, kept instead of the closed session's copy of it: nothing plays
    # on this engine, an emitted entry is never changed, no reader of `Played.events`
    # changes the list, and a variant's log that starts from a kept state of the reference
    # run shares that run's very entries (`shared` then tests identity, not equality, per
    # opening event)
    events, notes = session.flushed()
    checked = checked_mantle(case, events, passing if replay is not None else None)
    checks = None
    if checked is not None:
        parsed, results, checks = checked
    else:
        final = await session.close()
        trace = RunTrace(
            case=case,
            run_index=1,
            turns=(),
            events=tuple(final.events),
            transcript=tuple(run.history),
            final=final,
        )
        parsed = None
        results = [r.to_json() for r in evaluate_checks(case.checks, trace, dialect=case.dialect)]
    return Played(
        "passed" if all(r["passed"] for r in results) else "failed",
        assertions=results,
        events=events,
        transcript=[(u.role, u.text) for u in run.history],
        notes=list(notes),
        reached=session.engine.reached,
        replay=_replay(run, recording, events),
        parsed=parsed,
        checks=checks,
        steps=[step for step, _ in recording.steps] if recording is not None else [],
    )


def _replay(
    run: Driven, recording: Recording | None, events: list[dict[str, Any]]
) -> Replay | None:
    """What the run's mutant plays replay: its answers, the simulator's steps, and the
    engine's kept states (`_verify_replay.resume_point`). A kept state's events are this
    run's very `events` (equal entries, never changed), so a mutant log that starts from
    one is compared with the run's at the cost of an identity test per opening event."""
    if recording is None:
        return None
    kept = run.replay or Replay(run.answers)
    kept.steps = recording.steps
    for turn, state in kept.states.items():
        if state.events == events[: len(state.events)]:
            kept.states[turn] = dataclasses.replace(state, events=events[: len(state.events)])
    return kept


async def _events(
    case: RunCase, target: Any, project: Project | None, replay: Replay | None
) -> list[dict[str, Any]]:
    """A run's events, driven on the engine when it can be."""
    if not _drivable(case, target):
        return (await _converse(case, target, project)).events
    simulator = _Later(case, project) if replay is not None else _simulator(case, project)
    return (await _drive(case, target, project, simulator, replay))[1].events


class _Later:
    """A mutant play's simulator, made when the play first needs one: a play that gives
    the reference run's answers to the end takes every step from the replay, and one that
    leaves them goes on from the kept simulator's state there (`resumed`)."""

    def __init__(self, case: RunCase, project: Project | None) -> None:
        self.case, self.project = case, project
        self.made: Any = None

    def resumed(self, state: dict[str, Any]) -> Any:
        kept = _SIMULATORS.get((id(self.case), id(self.project)))
        if kept is not None and kept[0] is self.case and kept[1] is self.project:
            return kept[2].resumed(state)  # `resumed` starts from a fresh copy itself
        return self._made().resumed(state)

    async def next_step(self, history: Any) -> Any:
        return await self._made().next_step(history)

    def _made(self) -> Any:
        if self.made is None:
            self.made = _simulator(self.case, self.project)
        return self.made


__all__ = ["MAX_TURNS", "Played", "compiled", "kills", "play", "reference", "run_case"]
