"""A mutant's play driven on the engine directly, with the reference run's opening replayed.

A mutant play only needs the run's events (`_verify_play.kills` decides on them alone), so
it drives the `ReferenceEngine` of a `mantle:` session turn by turn, as `play_turn` and the
runner's conversation loop do, without what only a run record needs (replies as protocol
objects, turn traces, timings, the final record).

The offline simulator decides each step from the conversation so far and its own state: as
long as the mutant's answers are the reference run's, word for word and turn for turn, its
next step is the one the reference run recorded (`Replay`), so it is taken from there
instead of being asked again. At the first answer that differs, the simulator goes on from
the reference run's state at that point (`FactSimulator.resumed`). A simulator that cannot
say its state is asked at every step.

The opening turns themselves need not be played again either: the reference run keeps the
engine's state at each turn boundary where no skill's procedure runs
(`evalcore.agents.reference._snapshot`) and the fault sites reached up to each boundary, and
a mutant's engine starts from the last kept state before the first turn that reaches one of
its sites (`resume_point`): up to there it would have made every choice the reference agent
made. An allowed variant's play starts the same way from the last kept state before the
first turn that reaches its freedom (`Variant.site`, its one site).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from evalcore.agents.reference import SITES, Snapshot, restore, sites, take
from evalcore.runner import choice_label
from evalcore.simulator import SimulationError, SimulatorStep, Utterance

#: A turn's answer as the simulator sees it: the agent's lines, and whether it ended.
Answer = tuple[list[str], bool]


@dataclass
class Replay:
    """What a reference run said and asked, turn by turn (turn 0: the session start)."""

    answers: list[Answer] = field(default_factory=list)
    steps: list[tuple[SimulatorStep, dict[str, Any]]] = field(default_factory=list)
    """Each simulator step and the simulator's state after it."""
    reached: list[frozenset[tuple[str, str | None]]] = field(default_factory=list)
    """The fault sites the run had reached after each turn (turn 0: the session start)."""
    states: dict[int, Snapshot] = field(default_factory=dict)
    """The engine's state after turn N, where no skill's procedure was running then."""


def resume_point(
    replay: Replay | None, mutant: Any, defs: Any, variant: Any = None
) -> tuple[int, Snapshot] | None:
    """The last kept state of the reference run before the first turn that reaches one of
    `mutant`'s fault sites or `variant`'s freedom (`Variant.site`): None where none is
    kept, where neither is given, or where the mutant kind's sites are not known."""
    if replay is None or not replay.states or (mutant is None and variant is None):
        return None
    if mutant is not None and mutant.kind not in SITES:
        return None
    own = set(sites(mutant, defs)) if mutant is not None else set()
    if variant is not None:
        own.add(variant.site)
    first = next((t for t, seen in enumerate(replay.reached) if own & seen), len(replay.reached))
    # turn `first` may go otherwise: the state after turn `first - 1` at the latest
    usable = [t for t in replay.states if t < first and t < len(replay.answers)]
    if not usable:
        return None
    at = max(usable)
    return at, replay.states[at]


class Recording:
    """A simulator that notes each step and its state after it (the reference run's)."""

    def __init__(self, simulator: Any) -> None:
        self.simulator = simulator
        self.steps: list[tuple[SimulatorStep, dict[str, Any]]] = []

    def __getattr__(self, name: str) -> Any:
        return getattr(self.simulator, name)

    async def next_step(self, history: Sequence[Utterance]) -> SimulatorStep:
        step = await self.simulator.next_step(history)
        self.steps.append((step, self.simulator.state()))
        return step


def recordable(simulator: Any) -> bool:
    return callable(getattr(simulator, "state", None)) and callable(
        getattr(simulator, "resumed", None)
    )


def agent_lines(events: Sequence[dict[str, Any]]) -> list[str]:
    """The transcript lines of a turn's `bot` events, as the runner writes them: what
    `message_text` makes of the messages `play_turn` builds (text, then the buttons)."""
    lines = []
    for e in events:
        if e["event"] != "bot":
            continue
        text = (e.get("text") or "").strip()
        pieces = [text] if text else []
        buttons = (e.get("data") or {}).get("buttons")
        if buttons:
            pieces.append("[buttons: " + " | ".join(choice_label(b) for b in buttons) + "]")
        lines.append(" ".join(pieces))
    return lines


@dataclass
class Driven:
    """One conversation driven on an engine."""

    events: list[dict[str, Any]]
    """The engine's own list (the caller copies what it keeps)."""
    history: list[Utterance]
    """The transcript, as the runner's conversation has it."""
    answers: list[Answer]
    replay: Replay | None = None
    """What `drive(record=True)` kept of the run (its `steps` are the caller's to add)."""


async def drive(
    engine: Any,
    setup: dict[str, Any],
    simulator: Any,
    replay: Replay | None,
    *,
    case_setup: dict[str, Any] | None,
    max_turns: int,
    simulate_cap: int | None,
    record: bool = False,
    resume: tuple[int, Snapshot] | None = None,
) -> Driven:
    """One conversation of `engine` with `simulator` (a fresh one), played as
    `evalcore.runner._conversation.play` plays a case without a script: the start turn
    (`case_setup`'s slots, else the session's), then one simulator message per answer, each
    turn as `play_turn` plays it.

    Raises what the engine or simulator raise, and `SimulationError` for a simulator done
    before the first message (the runner's errored run).

    `record` keeps, in the returned `Driven.replay`, what a mutant play needs of this run
    (the reached sites per turn, the engine's state where it can be kept); `resume` (with
    the `replay` it came from) starts `engine` from a kept state after that many turns."""
    if resume is not None and replay is not None and simulator is not None:
        turns, snapshot = resume
        restore(engine, snapshot)
        run = Driven(engine.events, _history(replay, turns), replay.answers[: turns + 1])
        same, used = True, turns
    else:
        first = len(engine.events)
        engine.start((case_setup if case_setup else setup or {}).get("initial_slots") or {})
        answer: Answer = (agent_lines(engine.events[first:]), engine.ended)
        run = Driven(engine.events, [Utterance(0, "agent", line) for line in answer[0]], [answer])
        same = replay is not None and answer == replay.answers[0]
        used, turns = 0, 0  # reference steps taken instead of asking the simulator
    kept = Replay(run.answers) if record else None
    run.replay = kept
    if kept is not None:
        _keep(kept, engine, 0)
    if engine.ended or simulator is None:
        return run
    # `play_turn` starts the session before each turn: once started, that only reads the
    # same seeded slots again
    slots = (setup or {}).get("initial_slots") or {}
    while turns < max_turns and (simulate_cap is None or turns < simulate_cap):
        if same and replay is not None and used < len(replay.steps):
            step = replay.steps[used][0]
            used += 1
        else:
            if used and replay is not None:
                simulator = simulator.resumed(replay.steps[used - 1][1])
                used = 0
            step = await simulator.next_step(run.history)
        if step.done:
            if turns == 0:
                raise SimulationError("the simulator was done before the first message")
            break
        turns += 1
        text = step.message or ""
        first = len(engine.events)
        if not engine.started:
            engine.start(slots)
        engine.receive(text)
        answer = (agent_lines(engine.events[first:]), engine.ended)
        run.answers.append(answer)
        run.history.append(Utterance(turns, "user", text))
        run.history.extend(Utterance(turns, "agent", line) for line in answer[0])
        if kept is not None:
            _keep(kept, engine, turns)
        if same:
            same = replay is not None and turns < len(replay.answers)
            same = same and answer == replay.answers[turns]  # type: ignore[union-attr]
        if engine.ended:
            break
    return run


def _keep(kept: Replay, engine: Any, turn: int) -> None:
    """Note what the run reached by the end of `turn`, and its state when it can be kept."""
    reached = getattr(engine, "reached", None)
    if reached is None:
        return
    kept.reached.append(frozenset(reached))
    state = take(engine)
    if state is not None:
        kept.states[turn] = state


def _history(replay: Replay, turns: int) -> list[Utterance]:
    """The transcript of the reference run's first `turns` turns (its answers and the
    messages its simulator sent)."""
    history = [Utterance(0, "agent", line) for line in replay.answers[0][0]]
    for turn in range(1, turns + 1):
        history.append(Utterance(turn, "user", replay.steps[turn - 1][0].message or ""))
        history.extend(Utterance(turn, "agent", line) for line in replay.answers[turn][0])
    return history


__all__ = [
    "Answer",
    "Driven",
    "Recording",
    "Replay",
    "agent_lines",
    "drive",
    "recordable",
    "resume_point",
]
