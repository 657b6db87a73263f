"""A base44 eval as the runner plays it (`Dialect.run_cases`): one case per prompt, sent to
the command agent in the eval's fixture folder."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ...writer import safe_slug


def run_cases(path: Path, data: dict[str, Any]) -> list[dict[str, Any]]:
    entries = data.get("prompts") or (
        [
            {
                "name": data["name"],
                "prompt": data["prompt"],
                "expectedSkills": data.get("expectedSkills") or [],
                "checks": data.get("checks") or [],
            }
        ]
        if data.get("prompt")
        else []
    )
    return [
        {
            "slug": safe_slug(
                f"{path.parent.name}-{entry['name']}"
                if path.name == "eval.json"
                else f"{path.stem}-{entry['name']}"
            ),
            "name": entry["name"],
            "dialect": "base44",
            "path": str(path),
            "setup": {"fixture": str(path.parent)},
            "checks": {
                "checks": entry.get("checks") or [],
                "expectedSkills": entry.get("expectedSkills") or [],
            },
            "prompt": entry["prompt"],
        }
        for entry in entries
    ]
