"""A Mantle scenario as the runner plays it (`Dialect.run_cases`): its seeded slots, its
simulation context, its assertions and criteria."""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any

from ...writer import safe_slug

_ENV_VAR = re.compile(r"\$\{([A-Za-z_][A-Za-z0-9_]*)\}")


def expand_env(value: Any) -> Any:
    """`${VAR}` in every string replaced from the environment, as Rasa loads scenarios; an
    unset variable is left as written, so the run shows what was missing."""
    if isinstance(value, str):
        return _ENV_VAR.sub(lambda m: os.environ.get(m.group(1), m.group(0)), value)
    if isinstance(value, dict):
        return {key: expand_env(item) for key, item in value.items()}
    if isinstance(value, list):
        return [expand_env(item) for item in value]
    return value


def run_cases(path: Path, data: dict[str, Any]) -> list[dict[str, Any]]:
    scenario = expand_env(data["scenario"])
    goals = scenario.get("goals") or {}
    return [
        {
            "slug": safe_slug(path.stem),
            "name": scenario["name"],
            "dialect": "mantle",
            "path": str(path),
            "setup": {"initial_slots": (scenario.get("setup") or {}).get("initial_slots") or {}},
            "simulate": {"context": scenario["simulation_context"]},
            "checks": goals.get("assertions") or [],
            "criteria": [
                {"id": str(i + 1), "text": text}
                for i, text in enumerate(goals.get("criteria") or [])
            ],
        }
    ]
