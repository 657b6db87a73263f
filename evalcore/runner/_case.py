"""One canonical `RunCase` for every dialect: what the runner plays, checks and judges.

Each dialect's file maps onto the same shape; only `checks` stays in its dialect's own form,
because each dialect's checks have their own documented semantics (evalcore.runner checks are
registered per dialect). A base44 eval file yields one case per prompt.
"""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from ..agents._protocol import UserTurn
from ..dialects import dialect_of
from ..documents import load_document
from ..errors import UserError
from ..writer import safe_slug


class Criterion(BaseModel):
    model_config = ConfigDict(extra="forbid")

    id: str
    text: str


class SimulationSpec(BaseModel):
    """What a simulated user is told. Mantle: `context` is the simulation_context; Anychat: a
    `simulate` turn's goal/persona/knows/until/maxTurns."""

    model_config = ConfigDict(extra="forbid")

    context: str = ""
    goal: str | None = None
    persona: str | None = None
    knows: list[str] = Field(default_factory=list)
    until: str | None = None
    max_turns: int | None = None


class RunCase(BaseModel):
    model_config = ConfigDict(extra="forbid")

    slug: str
    """File stem (Mantle convention), `<stem>-<prompt name>` for base44 prompts."""
    name: str
    dialect: str
    path: str
    setup: dict[str, Any] = Field(default_factory=dict)
    script: list[UserTurn] = Field(default_factory=list)
    """Scripted turns, played exactly, before any simulation."""
    simulate: SimulationSpec | None = None
    checks: Any = None
    """Mantle: goals.assertions (list); Anychat: expect.checks (dict); base44: the entry's
    `{"checks": [...], "expectedSkills": [...]}`."""
    criteria: list[Criterion] = Field(default_factory=list)
    samples: int = 1
    """Runs of this case the dialect asks for (Anychat `samples`)."""
    prompt: str | None = None
    """base44: the prompt sent to the command agent."""


def _anychat_turn(turn: Any) -> UserTurn | None:
    if isinstance(turn, str):
        return UserTurn(type="text", text=turn)
    if not isinstance(turn, dict) or "simulate" in turn:
        return None
    if "chip" in turn:
        return UserTurn(type="chip", chip=turn["chip"], fallback=turn.get("fallback"))
    if "slot" in turn:
        return UserTurn(type="slot", slot=turn["slot"], fallback=turn.get("fallback"))
    if "confirm" in turn:
        return UserTurn(type="confirm", confirm=turn["confirm"], fallback=turn.get("fallback"))
    if "system" in turn:
        return UserTurn(type="system", event=turn["system"])
    if "action" in turn:
        return UserTurn(type="action", action=turn["action"], label=turn.get("label"))
    if "media" in turn:
        return UserTurn(type="media", media=turn["media"], url=turn["url"], text=turn.get("text"))
    return None


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


def _from_mantle(path: Path, data: dict[str, Any]) -> list[RunCase]:
    scenario = expand_env(data["scenario"])
    goals = scenario.get("goals") or {}
    return [
        RunCase(
            slug=safe_slug(path.stem),
            name=scenario["name"],
            dialect="mantle",
            path=str(path),
            setup={"initial_slots": (scenario.get("setup") or {}).get("initial_slots") or {}},
            simulate=SimulationSpec(context=scenario["simulation_context"]),
            checks=goals.get("assertions") or [],
            criteria=[
                Criterion(id=str(i + 1), text=text)
                for i, text in enumerate(goals.get("criteria") or [])
            ],
        )
    ]


def _from_anychat(path: Path, data: dict[str, Any]) -> list[RunCase]:
    turns = data.get("turns") or []
    script = [t for t in (_anychat_turn(x) for x in turns) if t is not None]
    simulate = None
    for turn in turns:
        if isinstance(turn, dict) and "simulate" in turn:
            spec = turn["simulate"]
            simulate = SimulationSpec(
                context=(data.get("brief") or {}).get("scenario", ""),
                goal=spec.get("goal"),
                persona=spec.get("persona"),
                knows=list(spec.get("knows") or []),
                until=spec.get("until"),
                max_turns=spec.get("maxTurns"),
            )
    expect = data.get("expect") or {}
    return [
        RunCase(
            slug=safe_slug(str(data.get("key") or path.stem)),
            name=data["title"],
            dialect="anychat",
            path=str(path),
            setup={"scenario": data.get("scenario") or {}},
            script=script,
            simulate=simulate,
            checks=expect.get("checks") or {},
            criteria=[Criterion(**c) for c in (expect.get("judge") or {}).get("criteria") or []],
            samples=data.get("samples") or 1,
        )
    ]


def _from_base44(path: Path, data: dict[str, Any]) -> list[RunCase]:
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
        RunCase(
            slug=safe_slug(
                f"{path.parent.name}-{entry['name']}"
                if path.name == "eval.json"
                else f"{path.stem}-{entry['name']}"
            ),
            name=entry["name"],
            dialect="base44",
            path=str(path),
            setup={"fixture": str(path.parent)},
            checks={
                "checks": entry.get("checks") or [],
                "expectedSkills": entry.get("expectedSkills") or [],
            },
            prompt=entry["prompt"],
        )
        for entry in entries
    ]


_MAPPERS = {"mantle": _from_mantle, "anychat": _from_anychat, "base44": _from_base44}


def load_run_cases(path: Path, *, dialect: str | None = None) -> list[RunCase]:
    """Read one case file into run cases (the file must be schema-valid)."""
    doc = load_document(path)
    chosen = dialect_of(doc.data, path, dialect)
    if chosen is None:
        raise UserError(f"{path}: not a case file (cannot tell its dialect)")
    data, loading = chosen.as_loaded(doc)  # as the dialect's runtime reads it (`${VAR}`)
    findings = doc.findings + loading + chosen.schema_findings(data)
    problems = [f for f in findings if f.severity == "error"]  # warnings do not stop a run
    if problems:
        first = doc.locate(problems)[0]
        raise UserError(
            f"{path}:{first.line or 1}: {first.path} {first.message}",
            hint=f"run `casegen validate {path}` for every finding",
        )
    return _MAPPERS[chosen.name](path, data)
