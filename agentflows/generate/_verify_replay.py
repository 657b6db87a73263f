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
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from evalcore.runner._events import _label
from evalcore.simulator import SimulationError, SimulatorStep, Utterance

#: A turn's answer as the simulator sees it: the agent's lines, and whether it ended.
Answer = tuple[list[str], bool]


@dataclass
class Replay:
    """What a reference run said and asked, turn by turn (turn 0: the session start)."""

    answers: list[Answer] = field(default_factory=list)
    steps: list[tuple[SimulatorStep, dict[str, Any]]] = field(default_factory=list)
    """Each simulator step and the simulator's state after it."""


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
            pieces.append("[buttons: " + " | ".join(_label(b) for b in buttons) + "]")
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


async def drive(
    engine: Any,
    setup: dict[str, Any],
    simulator: Any,
    replay: Replay | None,
    *,
    case_setup: dict[str, Any] | None,
    max_turns: int,
    simulate_cap: int | None,
) -> Driven:
    """One conversation of `engine` with `simulator` (a fresh one), played as
    `evalcore.runner._conversation.play` plays a case without a script: the start turn
    (`case_setup`'s slots, else the session's), then one simulator message per answer, each
    turn as `play_turn` plays it.

    Raises what the engine or simulator raise, and `SimulationError` for a simulator done
    before the first message (the runner's errored run)."""
    first = len(engine.events)
    engine.start((case_setup if case_setup else setup or {}).get("initial_slots") or {})
    answer: Answer = (agent_lines(engine.events[first:]), engine.ended)
    run = Driven(engine.events, [Utterance(0, "agent", line) for line in answer[0]], [answer])
    same = replay is not None and answer == replay.answers[0]
    used = 0  # reference steps taken instead of asking the simulator
    if engine.ended or simulator is None:
        return run
    # `play_turn` starts the session before each turn: once started, that only reads the
    # same seeded slots again
    slots = (setup or {}).get("initial_slots") or {}
    turns = 0
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
        if same:
            same = replay is not None and turns < len(replay.answers)
            same = same and answer == replay.answers[turns]  # type: ignore[union-attr]
        if engine.ended:
            break
    return run


__all__ = ["Answer", "Driven", "Recording", "Replay", "agent_lines", "drive", "recordable"]
