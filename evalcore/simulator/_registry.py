"""Simulator engines registered by name, so results can say which one played the user."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from ..suggest import did_you_mean

if TYPE_CHECKING:
    from langchain_core.language_models import BaseChatModel

    from ..definitions import Project
    from ..llm import ModelConfig, ResponseCache
    from ..runcase import SimulationSpec
    from ._base import Simulator


@dataclass(frozen=True)
class SimulatorSettings:
    """How simulators are built for a whole command (one per run, from these settings)."""

    model: ModelConfig | None = None
    """None: no model configured, the offline engine plays the user."""
    chat: BaseChatModel | None = None
    """The chat model to call; None: built from `model` with `make_chat_model` on first use."""
    cache: ResponseCache | None = None
    """Replay cached answers (deterministic re-runs); None: always ask the model."""
    project: Project | None = None
    """The definitions the cases refer to, when the run knows them: the offline simulator
    then also recognises a fact by the project's own question for that field."""

    @property
    def engine(self) -> str:
        return "offline" if self.model is None else "llm"

    def with_chat(self) -> SimulatorSettings:
        """These settings with the chat model built (once per command, not once per run).

        Raises:
            ConfigError: a model is configured but cannot be reached (no API key).
        """
        if self.model is None or self.chat is not None:
            return self
        # start-up: langchain_core, langchain_openai, langsmith and 1 casegen module
        from ..llm import make_chat_model

        return replace(self, chat=make_chat_model(self.model))


SimulatorFactory = Callable[["SimulationSpec", str, SimulatorSettings], "Simulator"]

_ENGINES: dict[str, SimulatorFactory] = {}


def simulator_engine(name: str) -> Callable[[SimulatorFactory], SimulatorFactory]:
    """Register `factory(spec, dialect, settings) -> Simulator` under `name`."""

    def register(factory: SimulatorFactory) -> SimulatorFactory:
        _ENGINES[name] = factory
        return factory

    return register


def make_simulator(
    spec: SimulationSpec, *, dialect: str, settings: SimulatorSettings, engine: str | None = None
) -> Simulator:
    """A fresh simulator for one run of a case (`engine` default: by `settings.engine`).

    Raises:
        SimulationError: the engine cannot play this case (e.g. nothing to play offline).
    """
    name = engine or settings.engine
    factory = _ENGINES.get(name)
    if factory is None:
        raise KeyError(f"no simulator engine '{name}'" + _hint(name))
    return factory(spec, dialect, settings)


def engine_names() -> list[str]:
    return sorted(_ENGINES)


def _hint(name: str) -> str:
    hint = did_you_mean(name, list(_ENGINES), what="engine")
    return f"; {hint}" if hint else ""


__all__ = [
    "SimulatorFactory",
    "SimulatorSettings",
    "engine_names",
    "make_simulator",
    "simulator_engine",
]
