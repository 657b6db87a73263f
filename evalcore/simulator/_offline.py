"""The offline simulator: plays the case's scripted user lines in order, no model.

What it plays (the documented offline rules):

- **Mantle** `simulation_context` in the fact-sheet grammar (`You are …`, `You want …`,
  `What you know …`; docs/simulation-contexts.md): answered turn by turn from its facts
  (`_facts.FactSimulator`), never by replaying lines in order.
- **Mantle** `simulation_context` with numbered steps: the quoted lines of its steps, in
  order (`_quoted.py`; hand-written contexts keep working).
- **Mantle** free-prose persona (`You are …. Ask to …. When the agent asks X, say Y.`): the
  facts and answers its sentences give (`_prose.py`), played like a fact sheet. A context
  that is none of these cannot
  be played offline; the run errors with "offline simulator needs quoted user lines" rather
  than inventing a message (a persona sentence sent as the customer's words would test
  nothing and look like an agent failure).
- **Anychat** `simulate`: the quoted lines of numbered steps in `goal`, else each `knows`
  item verbatim, one per agent reply (they are the facts the user may reveal, so the agent
  hears all of them); neither → the same error.

It is done once the agent has answered the last line. Every result records engine
`offline`, so an offline pass is never mistaken for a simulated conversation.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from ..llm.usage import Usage
from ._base import SimulationError, Simulator, SimulatorStep, Utterance
from ._context import is_fact_context, parse_fact_context
from ._facts import FactSimulator
from ._prose import prose_fact_context
from ._questions import confirmation_texts, questions_for
from ._quoted import quoted_user_lines
from ._registry import SimulatorSettings, simulator_engine

if TYPE_CHECKING:
    from ..runcase import SimulationSpec

NO_LINES = "offline simulator needs quoted user lines"
_HINT = (
    "describe the user with facts (You are …, You want to …, What you know …: "
    'docs/simulation-contexts.md), or write numbered steps with quoted lines (1. Say: "…"), or '
    "configure a simulator model (--model, CASEGEN_SIMULATOR_MODEL)"
)


class OfflineSimulator:
    """Plays fixed lines, one per call; then says it is done."""

    engine = "offline"
    model: str | None = None

    def __init__(self, lines: Sequence[str], *, source: str) -> None:
        if not lines:
            raise SimulationError(NO_LINES, hint=_HINT)
        self.lines = list(lines)
        self.source = source
        """Where the lines came from (`numbered quoted steps`, `knows`), for results."""
        self.usage = Usage()
        self._next = 0

    async def next_step(self, history: Sequence[Utterance]) -> SimulatorStep:
        if self._next >= len(self.lines):
            return SimulatorStep("", True, note=f"offline: all {len(self.lines)} lines played")
        line = self.lines[self._next]
        self._next += 1
        return SimulatorStep(line, False)


def offline_lines(
    context: str, *, goal: str | None = None, knows: Sequence[str] = ()
) -> tuple[list[str], str]:
    """The lines the offline simulator plays and where they come from (see module doc)."""
    if goal is not None:
        lines = quoted_user_lines(goal)
        if lines:
            return lines, "numbered quoted steps of simulate.goal"
        items = [k.strip() for k in knows if k.strip()]
        return items, "simulate.knows items"
    return quoted_user_lines(context), "numbered quoted steps of the simulation context"


#: Said before a run whose offline user plays a free-prose persona.
PROSE_NOTE = (
    "free-prose simulation_context: the offline user knows only what its 'When the agent "
    "asks …, say …' sentences say, and a question they do not answer ends the run ('Sorry, "
    "I don't know that'); only a simulator model (--model) plays it as written, or give it "
    "facts (docs/simulation-contexts.md)"
)


def offline_note(spec: SimulationSpec) -> str | None:
    """Why the offline engine may not play this case as its author meant, before it runs:
    a free-prose persona (not a fact sheet, no quoted steps) holds only the facts read from
    its sentences."""
    if spec.goal is not None or quoted_user_lines(spec.context):
        return None
    if not spec.context.strip() or is_fact_context(spec.context):
        return None
    return PROSE_NOTE


@simulator_engine("offline")
def _offline(spec: SimulationSpec, dialect: str, settings: SimulatorSettings) -> Simulator:
    context = None
    if spec.goal is None and not quoted_user_lines(spec.context):
        if is_fact_context(spec.context):
            context = parse_fact_context(spec.context)
        else:  # a free-prose persona ("Ask to replace the card. When the agent asks …")
            context = prose_fact_context(spec.context)
    if context is not None:
        labels = [f.label for f in context.facts] + [c.cue for c in context.cues]
        questions = questions_for(settings.project, labels) if settings.project else None
        readbacks = confirmation_texts(settings.project) if settings.project else []
        return FactSimulator(context, questions=questions, confirmations=readbacks)
    lines, source = offline_lines(spec.context, goal=spec.goal, knows=spec.knows)
    return OfflineSimulator(lines, source=source)


__all__ = ["NO_LINES", "PROSE_NOTE", "OfflineSimulator", "offline_lines", "offline_note"]
