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
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from evalcore.agents.reference import Mutant, ReferenceTarget
from evalcore.definitions import Project
from evalcore.runner import RunCase, RunTrace, evaluate_checks, event_log
from evalcore.simulator import SimulatorSettings, make_simulator

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

    @property
    def failing(self) -> list[dict[str, Any]]:
        return [a for a in self.assertions if not a.get("passed")]


def run_case(data: dict[str, Any], path: Path, dialect: str) -> list[RunCase]:
    """The run cases of an in-memory document (a base44 file holds several)."""
    from evalcore.runner._case import _MAPPERS  # the dialect's case reader, minus the file

    return _MAPPERS[dialect](path, data)


_TARGETS: dict[tuple[str, str | None], ReferenceTarget] = {}


def reference(project: Project, mutant: Mutant | None = None) -> ReferenceTarget:
    """`mantle:<project>[?mutant=…]`, built once per process."""
    key = (str(project.root), mutant.id if mutant else None)
    target = _TARGETS.get(key)
    if target is None:
        base = _TARGETS.get((key[0], None)) or ReferenceTarget(project.root)
        _TARGETS[(key[0], None)] = base
        # Reading the project's file list again per mutant costs more than the play: a
        # mutant's target is the reference target with its one fault named.
        target = copy.copy(base)
        target.mutant = mutant
        target.spec = base.spec + (f"?mutant={mutant.id}" if mutant else "")
        _TARGETS[key] = target
    return target


async def play(case: RunCase, target: Any, project: Project | None) -> Played:
    """One run of `case` against `target` with the offline simulator; never raises for the
    agent's or the simulator's failures (they make an `errored` result)."""
    from evalcore.runner._conversation import Conversation
    from evalcore.runner._conversation import play as converse

    settings = SimulatorSettings(project=project)
    session = None
    try:
        simulator = (
            make_simulator(case.simulate, dialect=case.dialect, settings=settings)
            if case.simulate is not None
            else None
        )
        session = await target.open(case, 1)
        reached = getattr(getattr(session, "engine", None), "reached", None)
        conversation = Conversation(session, TURN_TIMEOUT_S)
        await converse(conversation, case, simulator, max_turns=MAX_TURNS)
        final = await session.close()
        session = None
        events = event_log(conversation.turns, final, started_at=time.time())
        trace = RunTrace(
            case=case,
            run_index=1,
            turns=tuple(conversation.turns),
            events=tuple(events),
            transcript=tuple(conversation.history()),
            final=final,
        )
        results = [r.to_json() for r in evaluate_checks(case.checks, trace, dialect=case.dialect)]
    except Exception as exc:  # a verifier failure never fails generation
        if session is not None:
            with contextlib.suppress(Exception):  # the first failure is the one to report
                await session.close()
        return Played("errored", error=f"{type(exc).__name__}: {exc}")
    return Played(
        "passed" if all(r["passed"] for r in results) else "failed",
        assertions=results,
        events=list(events),
        transcript=[(u.role, u.text) for u in trace.transcript],
        notes=list((final.meta or {}).get("notes") or []),
        reached=reached,
    )


__all__ = ["MAX_TURNS", "Played", "play", "reference", "run_case"]
