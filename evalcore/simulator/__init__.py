"""Simulated users: who types the user's side of a run once the scripted turns are played.

    settings = SimulatorSettings(model=resolve_model_config(None, role="simulator"))
    simulator = make_simulator(case.simulate, dialect=case.dialect, settings=settings)
    step = await simulator.next_step(history)     # SimulatorStep(message, done)

Two engines: `llm` (a structured `{message, done}` call per turn, prompted from the
Mantle `simulation_context` or the Anychat `simulate` block) and `offline` (no model: plays
the numbered quoted lines of the context; see `quoted_user_lines` for the exact rule).
"""

from __future__ import annotations

from . import _llm, _offline  # noqa: F401  (register the engines)
from ._base import SimulationError, Simulator, SimulatorStep, Utterance
from ._llm import LLMSimulator, SimulatedMessage, render_conversation
from ._offline import NO_LINES, OfflineSimulator, offline_lines
from ._quoted import QuotedLine, numbered_steps, quoted_lines, quoted_user_lines
from ._registry import SimulatorSettings, engine_names, make_simulator, simulator_engine

__all__ = [
    "NO_LINES",
    "LLMSimulator",
    "OfflineSimulator",
    "QuotedLine",
    "SimulatedMessage",
    "SimulationError",
    "Simulator",
    "SimulatorSettings",
    "SimulatorStep",
    "Utterance",
    "engine_names",
    "make_simulator",
    "numbered_steps",
    "offline_lines",
    "quoted_lines",
    "quoted_user_lines",
    "render_conversation",
    "simulator_engine",
]
