"""How a command runs its cases: limits, concurrency and the simulator and judge to use."""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from ..judge import JudgeSettings
from ..runcase import RunCase
from ..simulator import SimulatorSettings

DEFAULT_MAX_TURNS = 30
DEFAULT_TIMEOUT_S = 600.0
DEFAULT_TURN_TIMEOUT_S = 120.0
DEFAULT_PARALLEL = 3
#: Added to a target's own limit for one answer, so the target's error fires first.
TARGET_MARGIN_S = 30.0
#: A conversation's default limit is at least one answer's limit plus this.
RUN_MARGIN_S = 60.0


@dataclass(frozen=True)
class RunOptions:
    """Validated at construction, so a bad value fails before any conversation starts."""

    runs: int | None = None
    """Runs per case; None: what the case asks for (Anychat `samples`, else 1)."""
    parallel: int = DEFAULT_PARALLEL
    """Conversations at once, and model requests in flight across them (simulator, judge
    and metrics judge together), so a provider limit sized to it holds."""
    max_turns: int = DEFAULT_MAX_TURNS
    """User turns per run (scripted and simulated); reaching it ends the conversation."""
    timeout_s: float | None = None
    """Wall-clock limit of one conversation; exceeding it errors the run. None: 600 s, or
    more when the target's own limit for one answer is longer (see `limits`)."""
    turn_timeout_s: float | None = None
    """Limit on one agent answer (and on opening and closing a session). None: the target's
    own limit (`target.timeout_s`) plus a margin, so its clearer error fires first; 120 s
    for targets without one."""
    simulator: SimulatorSettings = field(default_factory=SimulatorSettings)
    judge: JudgeSettings = field(default_factory=JudgeSettings)
    metrics: bool = True
    """Ask the metrics judge for quality metrics (Mantle, with a judge model); False:
    recorded as not measured (`--no-metrics`), one model call per run saved."""
    exitfirst: bool = False
    """Start no further run once one failed or errored (`-x`); runs in progress finish."""

    def __post_init__(self) -> None:
        if self.runs is not None and self.runs < 1:
            raise ValueError("runs must be at least 1")
        if self.parallel < 1:
            raise ValueError("parallel must be at least 1")
        if self.max_turns < 1:
            raise ValueError("max_turns must be at least 1")
        for limit in (self.timeout_s, self.turn_timeout_s):
            if limit is not None and limit <= 0:
                raise ValueError("timeouts must be positive")
        if self.judge.samples < 1:
            raise ValueError("judge samples must be at least 1")

    def runs_for(self, case: RunCase) -> int:
        return self.runs if self.runs is not None else max(1, case.samples)

    def limits(self, target: object) -> tuple[float, float]:
        """`(turn_s, run_s)`: the per-answer and per-conversation limits for `target`.

        A command agent may work for 15 minutes on its one turn, a Rasa request gives up
        after 60 s: the defaults follow the target's own `timeout_s` so the runner's guard
        never cuts a target short of its documented limit.
        """
        own = getattr(target, "timeout_s", None)
        if self.turn_timeout_s is not None:
            turn = self.turn_timeout_s
        elif isinstance(own, int | float) and own > 0:
            turn = float(own) + TARGET_MARGIN_S
        else:
            turn = DEFAULT_TURN_TIMEOUT_S
        run = (
            self.timeout_s
            if self.timeout_s is not None
            else max(DEFAULT_TIMEOUT_S, turn + RUN_MARGIN_S)
        )
        return turn, run

    def with_models(self) -> RunOptions:
        """The options with chat models built once for the whole command.

        Raises:
            ConfigError: a configured model cannot be used (no API key).
        """
        return replace(self, simulator=self.simulator.with_chat(), judge=self.judge.with_chat())


__all__ = [
    "DEFAULT_MAX_TURNS",
    "DEFAULT_PARALLEL",
    "DEFAULT_TIMEOUT_S",
    "DEFAULT_TURN_TIMEOUT_S",
    "RunOptions",
]
