"""An Anychat case as the runner plays it (`Dialect.run_cases`): its scripted turns, its
`simulate` turn, its starting scenario, checks, criteria and samples."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ...writer import safe_slug


def _turn(turn: Any) -> dict[str, Any] | None:
    """A scripted turn as the runner's `UserTurn` fields (None for a `simulate` turn)."""
    if isinstance(turn, str):
        return {"type": "text", "text": turn}
    if not isinstance(turn, dict) or "simulate" in turn:
        return None
    if "chip" in turn:
        return {"type": "chip", "chip": turn["chip"], "fallback": turn.get("fallback")}
    if "slot" in turn:
        return {"type": "slot", "slot": turn["slot"], "fallback": turn.get("fallback")}
    if "confirm" in turn:
        return {"type": "confirm", "confirm": turn["confirm"], "fallback": turn.get("fallback")}
    if "system" in turn:
        return {"type": "system", "event": turn["system"]}
    if "action" in turn:
        return {"type": "action", "action": turn["action"], "label": turn.get("label")}
    if "media" in turn:
        return {
            "type": "media",
            "media": turn["media"],
            "url": turn["url"],
            "text": turn.get("text"),
        }
    return None


def run_cases(path: Path, data: dict[str, Any]) -> list[dict[str, Any]]:
    turns = data.get("turns") or []
    script = [t for t in (_turn(x) for x in turns) if t is not None]
    simulate = None
    for turn in turns:
        if isinstance(turn, dict) and "simulate" in turn:
            spec = turn["simulate"]
            simulate = {
                "context": (data.get("brief") or {}).get("scenario", ""),
                "goal": spec.get("goal"),
                "persona": spec.get("persona"),
                "knows": list(spec.get("knows") or []),
                "until": spec.get("until"),
                "max_turns": spec.get("maxTurns"),
            }
    expect = data.get("expect") or {}
    return [
        {
            "slug": safe_slug(str(data.get("key") or path.stem)),
            "name": data["title"],
            "dialect": "anychat",
            "path": str(path),
            "setup": {"scenario": data.get("scenario") or {}},
            "script": script,
            "simulate": simulate,
            "checks": expect.get("checks") or {},
            "criteria": list((expect.get("judge") or {}).get("criteria") or []),
            "samples": data.get("samples") or 1,
        }
    ]
