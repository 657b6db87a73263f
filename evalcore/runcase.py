"""One canonical `RunCase` for every dialect: what the runner plays, checks and judges.

Each dialect's file maps onto the same shape (`Dialect.run_cases`); only `checks` stays in
its dialect's own form, because each dialect's checks have their own documented semantics
(evalcore.runner checks are registered per dialect). A base44 eval file yields one case per
prompt.

A layer below the runner, the simulator and the judge, which all read it (`evalcore.runner`
offers it too): the runner imports those two, so the case model cannot live inside it.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from .agents import UserTurn
from .dialects import Dialect, dialect_of
from .documents import load_document
from .errors import UserError


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
    return as_run_cases(data, path, chosen)


def as_run_cases(data: dict[str, Any], path: Path, dialect: Dialect) -> list[RunCase]:
    """The run cases of a schema-valid document read as `dialect` (a base44 file holds
    several); `path` names them and says where a fixture lies, and is not read."""
    return [RunCase.model_validate(case) for case in dialect.run_cases(path, data)]
