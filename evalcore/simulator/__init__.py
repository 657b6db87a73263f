"""Simulated users: who types the user's side of a run once the scripted turns are played.

    settings = SimulatorSettings(model=resolve_model_config(None, role="simulator"))
    simulator = make_simulator(case.simulate, dialect=case.dialect, settings=settings)
    step = await simulator.next_step(history)     # SimulatorStep(message, done)

Two engines: `llm` (a structured `{message, done}` call per turn, prompted from the
Mantle `simulation_context` or the Anychat `simulate` block) and `offline` (no model: answers
from the facts of a fact-sheet context, `FactSimulator`, or plays the numbered quoted lines of
a hand-written one; see docs/simulation-contexts.md and `quoted_user_lines`).
"""

from __future__ import annotations

from . import _llm, _offline  # noqa: F401  (register the engines)
from ._base import SimulationError, Simulator, SimulatorStep, Utterance
from ._context import (
    CHANCE_NOTE,
    FACTS_HEADER,
    OPENING_LEAD,
    ContextFact,
    CueLine,
    FactContext,
    FollowUp,
    is_fact_context,
    parse_fact_context,
)
from ._facts import CLOSING, UNKNOWN, FactSimulator, opening_line
from ._llm import LLMSimulator, SimulatedMessage, render_conversation
from ._offline import NO_LINES, PROSE_NOTE, OfflineSimulator, offline_lines, offline_note
from ._pronouns import first_person
from ._quoted import QuotedLine, numbered_steps, quoted_lines, quoted_user_lines
from ._registry import SimulatorSettings, engine_names, make_simulator, simulator_engine
from ._words import stems

__all__ = [
    "CHANCE_NOTE",
    "CLOSING",
    "FACTS_HEADER",
    "NO_LINES",
    "OPENING_LEAD",
    "PROSE_NOTE",
    "UNKNOWN",
    "ContextFact",
    "CueLine",
    "FactContext",
    "FactSimulator",
    "FollowUp",
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
    "first_person",
    "is_fact_context",
    "make_simulator",
    "numbered_steps",
    "offline_lines",
    "offline_note",
    "opening_line",
    "parse_fact_context",
    "quoted_lines",
    "quoted_user_lines",
    "render_conversation",
    "simulator_engine",
    "stems",
]
