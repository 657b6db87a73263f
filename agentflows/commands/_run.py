"""The simulator's and judge's settings of a run, as `casegen run` and the MCP tool
`run_cases` both resolve them."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from evalcore.judge import JudgeSettings
    from evalcore.simulator import SimulatorSettings


def run_settings(
    model: str | None, judge_model: str | None, samples: int, start: Path, use_cache: bool
) -> tuple[SimulatorSettings, JudgeSettings]:
    """`--model` sets both roles unless `--judge-model` is given (`offline` = none)."""
    # start-up: pydantic, yaml, asyncio and 75 casegen modules
    from evalcore.judge import JudgeSettings

    # start-up: pydantic, tomllib, hashlib and 11 casegen modules
    from evalcore.llm import ResponseCache, resolve_model_config

    # start-up: pydantic, yaml, tomllib and 67 casegen modules
    from evalcore.simulator import SimulatorSettings

    simulator = resolve_model_config(model, start=start, role="simulator")
    judge = resolve_model_config(judge_model or model, start=start, role="judge")
    return (
        SimulatorSettings(
            model=simulator,
            cache=ResponseCache(simulator.cache_dir) if simulator and use_cache else None,
        ),
        JudgeSettings(
            model=judge,
            samples=samples,
            cache=ResponseCache(judge.cache_dir) if judge and use_cache else None,
        ),
    )


__all__ = ["run_settings"]
