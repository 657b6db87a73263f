"""A reference engine's state at a turn boundary, kept to start another engine from it.

A mutant plays a case exactly as the reference agent does up to the first turn where one
of its fault sites is reached (`_reach.py`): until then every choice it makes is the
reference agent's. So instead of playing those opening turns again, a mutant's engine can
start from the reference run's state just before that turn.

A state can be kept only where no skill's procedure is running: a procedure is a running
Python generator (suspended at the question it waits on), which cannot be copied. At a
boundary where every skill on the stack has finished its procedure (the stack is empty, or
holds skills that wait on a follow-up only), the engine's state is plain data: memory, the
event log, the stack's frames, the responses fired, notes, the sites reached, the test
account and what an allowed variant keeps (the model's last write, late writes held).
`take` copies it (None where a procedure runs) and `restore` puts a copy into a fresh
engine, which then plays on as an engine that played the opening itself would. The event
log's entries are shared, not copied: the engine never changes an event it emitted.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass
from typing import Any

from ._mantle_engine import Frame

_SCALARS = (str, int, float, bool, type(None))


def clone(value: Any) -> Any:
    """A deep copy of JSON-like data (dicts, lists, sets, tuples of scalars), faster than
    `copy.deepcopy` for the event log; anything else goes through `copy.deepcopy`."""
    if isinstance(value, _SCALARS):
        return value
    kind = type(value)
    if kind is dict:
        return {k: v if isinstance(v, _SCALARS) else clone(v) for k, v in value.items()}
    if kind is list:
        return [v if isinstance(v, _SCALARS) else clone(v) for v in value]
    if kind is set:
        return set(value) if all(isinstance(v, _SCALARS) for v in value) else copy.deepcopy(value)
    if kind is tuple and all(isinstance(v, _SCALARS) for v in value):
        return value
    return copy.deepcopy(value)


def _finished() -> Any:
    """A procedure that has returned (a frame waiting on a follow-up holds one)."""
    return
    yield  # a generator


def running(engine: Any) -> bool:
    """Whether a skill's procedure on the stack is suspended mid-way (not copyable)."""
    return any(f.procedure is not None and f.procedure.gi_frame is not None for f in engine.stack)


@dataclass(frozen=True)
class Snapshot:
    """An engine's data at a turn boundary where no procedure runs (see the module)."""

    memory: dict[str, Any]
    events: list[dict[str, Any]]
    frames: list[dict[str, Any]]
    fired: set[str]
    notes: list[str]
    reached: set[tuple[str, str | None]]
    account: str | None
    started: bool
    ended: bool
    last_model_write: int = -1
    """Where the model's last memory write stands in `events` (`reorder_writes`)."""
    held: tuple[tuple[str, dict[str, Any]], ...] = ()
    """Late writes not yet recorded (`set_late`)."""
    waiting: tuple[str, str, str] | None = None
    """A request held while its skill's precondition resolver runs (`Listening.waiting`)."""


def _frame_data(frame: Frame) -> dict[str, Any]:
    return {
        "skill": frame.skill,
        "entry": frame.entry,
        "context": frame.context,
        "pending": frame.pending,  # a follow-up's reading: no state of its own
        "parked": frame.parked,
        "blocks": list(frame.blocks),
        "results": clone(frame.results),
        "scratch": clone(frame.scratch),
        "procedure": frame.procedure is not None,
    }


def take(engine: Any) -> Snapshot | None:
    """A copy of `engine`'s state now, or None while a skill's procedure runs."""
    if running(engine):
        return None
    return Snapshot(
        memory=clone(engine.memory),
        # an emitted event is never changed afterwards (the engine only appends): the log's
        # events are shared, the list is not
        events=list(engine.events),
        frames=[_frame_data(f) for f in engine.stack],
        fired=set(engine.fired),
        notes=list(engine.notes),
        reached=set(engine.reached),
        account=engine.account,
        started=engine.started,
        ended=engine.ended,
        last_model_write=engine.last_model_write,
        held=tuple((event, dict(payload)) for event, payload in engine.held_writes),
        waiting=engine.waiting,
    )


def restore(engine: Any, snapshot: Snapshot) -> None:
    """Put a copy of `snapshot` into `engine`, a fresh engine of the same project (its
    own mutant, if any, kept): it plays on from that boundary."""
    engine.memory = clone(snapshot.memory)
    engine.events = list(snapshot.events)
    stack = []
    for data in snapshot.frames:
        frame = Frame(skill=data["skill"], entry=data["entry"], context=data["context"])
        frame.pending = data["pending"]
        frame.parked = data["parked"]
        frame.blocks = list(data["blocks"])
        frame.results = clone(data["results"])
        frame.scratch = clone(data["scratch"])
        if data["procedure"]:
            frame.procedure = _finished()
            next(frame.procedure, None)
        stack.append(frame)
    engine.stack = stack
    engine.fired = set(snapshot.fired)
    engine.notes = list(snapshot.notes)
    engine.reached.clear()  # the same set the engine's watched flags write to
    engine.reached.update(snapshot.reached)
    engine.account = snapshot.account
    engine.started = snapshot.started
    engine.ended = snapshot.ended
    engine.last_model_write = snapshot.last_model_write
    engine.held_writes = [(event, dict(payload)) for event, payload in snapshot.held]
    engine.waiting = snapshot.waiting


__all__ = ["Snapshot", "clone", "restore", "running", "take"]
