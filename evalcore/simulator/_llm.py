"""The model-backed simulator: one structured `{message, done}` call per user turn.

The dialect's prompt (`Dialect.simulation_prompt`, `prompts/run/simulate_*.md`) tells the
model who it plays and what it may reveal; the answer is schema-forced, so "done" is a
field, not a stop word to parse.
An unusable answer (empty while not done, or out of role: speaking as the agent, as an AI,
or with a role label) is retried once with a note saying what was wrong; a second unusable
answer errors the run with that reason, because a broken simulator would otherwise show up
as an agent failure (simulator errors cause a large share of false failures in peers).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel, Field

from ..dialects import dialect_names, get_dialect
from ..lexicon.en import agent_turns as en
from ..llm.usage import Usage
from ..prompts import render_prompt
from ._base import SimulationError, SimulatorStep, Utterance
from ._registry import SimulatorSettings, simulator_engine

if TYPE_CHECKING:
    from ..runcase import SimulationSpec


class SimulatedMessage(BaseModel):
    """The simulated user's next message, or that the conversation is over."""

    message: str = Field(
        description="What the user types next, in character: one or two short sentences. "
        "Empty only when done is true."
    )
    done: bool = Field(
        description="true when the goal is reached, the context says to stop, or the agent "
        "clearly cannot help; the message is then not sent"
    )


RETRY_PROMPT = "run/simulate_retry"


def unusable(step: SimulatedMessage, last_agent: str | None) -> str | None:
    """Why an answer cannot be sent, or None when it can (see the module docstring)."""
    text = step.message.strip()
    if step.done:
        return None
    if not text:
        return "the message was empty although done was false"
    if en.ROLE_LABEL.match(text):
        return f"the message starts with a role label ({text.split(':', 1)[0].strip()}:)"
    found = en.OUT_OF_ROLE.search(text)
    if found:
        return f"the message is out of role ('{found.group(0)}')"
    if last_agent and " ".join(text.split()).lower() == " ".join(last_agent.split()).lower():
        return "the message repeats the agent's last message"
    return None


def render_conversation(history: Sequence[Utterance]) -> str:
    """The conversation as the simulated user sees it (`agent:` / `you:` lines)."""
    if not history:
        return "(nothing yet: you write the first message)"
    return "\n".join(
        f"{'you' if u.role == 'user' else 'agent'}: {u.text or '(no text)'}" for u in history
    )


class LLMSimulator:
    """Asks the configured model for each user turn."""

    engine = "llm"

    def __init__(self, spec: SimulationSpec, dialect: str, settings: SimulatorSettings) -> None:
        if settings.model is None:
            raise ValueError("LLMSimulator needs a model")
        plugin = get_dialect(dialect) if dialect in dialect_names() else None
        if plugin is None or plugin.simulation_prompt is None:
            raise SimulationError(f"no simulator prompt for {dialect} cases")
        self.spec = spec
        self.dialect = dialect
        self.prompt: str = plugin.simulation_prompt
        self._plugin = plugin
        self.config = settings.model
        self.model: str | None = settings.model.model
        self.cache = settings.cache
        self._settings = settings.with_chat()
        self.usage = Usage()

    def prompt_values(self, history: Sequence[Utterance]) -> dict[str, Any]:
        """The prompt's values: what the dialect tells the simulated user, and the
        conversation so far."""
        values: dict[str, Any] = self._plugin.simulation_values(self.spec)
        return {**values, "conversation": render_conversation(history)}

    async def next_step(self, history: Sequence[Utterance]) -> SimulatorStep:
        # start-up: langchain_core, langsmith, openai and 10 casegen modules
        from ..llm import structured_call

        messages: list[tuple[str, str]] = list(
            render_prompt(self.prompt, **self.prompt_values(history)).messages
        )
        last_agent = next((u.text for u in reversed(history) if u.role == "agent"), None)
        problem: str | None = None
        for attempt in (1, 2):
            if problem is not None:
                messages += render_prompt(RETRY_PROMPT, problem=problem).messages
            result = await structured_call(
                self._settings.chat,
                messages,
                SimulatedMessage,
                config=self.config,
                cache=self.cache,
                kind="simulate",
            )
            self.usage = self.usage + result.usage
            problem = unusable(result.value, last_agent)
            if problem is None:
                note = "retried once: unusable first answer" if attempt == 2 else None
                return SimulatorStep(result.value.message.strip(), result.value.done, note=note)
            messages.append(("assistant", result.raw_text or result.value.model_dump_json()))
        raise SimulationError(
            f"simulator gave no usable message after one retry: {problem}",
            hint="check the simulation context, or use a stronger simulator model",
        )


@simulator_engine("llm")
def _llm(spec: SimulationSpec, dialect: str, settings: SimulatorSettings) -> LLMSimulator:
    return LLMSimulator(spec, dialect, settings)


__all__ = ["LLMSimulator", "SimulatedMessage", "render_conversation", "unusable"]
