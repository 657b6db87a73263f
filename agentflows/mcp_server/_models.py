"""Schemas of the MCP tools: their typed arguments and annotations (what `tools/list`
publishes as input schema and hints), and the shapes `casegen <command> --json` prints.

The payloads themselves come from the same functions as the CLI; these models only publish
their shape (`outputSchema`) so a client can rely on the keys. Every model allows extra keys,
so a field added to a CLI payload reaches MCP clients without a schema change here.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from mcp.types import ToolAnnotations
from pydantic import BaseModel, ConfigDict, Field

ProjectArg = Annotated[
    str | None,
    Field(
        description="Project folder (Rasa Mantle project, Anychat playbooks or Agent Skills). "
        "Default: the server's --project, else the nearest project at or above the folder "
        "the server runs in."
    ),
]
PathsArg = Annotated[
    list[str] | str,
    Field(
        description="Case files or folders (searched recursively), relative to the folder "
        "the server runs in. One path or a list."
    ),
]
DialectArg = Annotated[
    Literal["mantle", "anychat", "base44"] | None,
    Field(description="Force a case dialect (default: detected per file, or by project kind)."),
]
ModelArg = Annotated[
    str | None,
    Field(
        description="Model name, or 'offline' for no model (default: CASEGEN_MODEL or "
        "[tool.casegen] settings; none configured means offline)."
    ),
]

READ_ONLY = ToolAnnotations(read_only_hint=True, open_world_hint=False)
#: Writing case files or results may replace what is there.
WRITES = ToolAnnotations(read_only_hint=False, destructive_hint=True, open_world_hint=False)


class _Open(BaseModel):
    model_config = ConfigDict(extra="allow")


class SourcesOutput(_Open):
    """`casegen sources --json`: every id the project defines."""

    root: str = Field(description="The project folder.")
    kind: str = Field(description="mantle, anychat or agent_skills.")
    warnings: list[str] = Field(
        default_factory=list, description="Definition files that could not be read fully."
    )


class FileRecord(_Open):
    """One file's validation outcome (repair adds repairs, diff, written)."""

    path: str
    dialect: str | None = Field(description="mantle, anychat, base44, or null when unknown.")
    valid: bool
    errors: list[dict[str, Any]] = Field(
        description="Findings: code, severity, path (JSON Pointer), line, message, value, "
        "suggestion."
    )
    warnings: list[dict[str, Any]]


class ValidateOutput(_Open):
    """`casegen validate --json`."""

    files: list[FileRecord]
    summary: dict[str, int] = Field(description="files, valid, invalid.")


class RepairOutput(_Open):
    """`casegen repair --json`."""

    files: list[FileRecord]
    summary: dict[str, int] = Field(description="files, repaired, valid, invalid.")
    dry_run: bool


class GenerateOutput(_Open):
    """`casegen generate --json`: the run report (plus `pr` when a branch was made)."""

    run_id: str
    engine: str = Field(description="offline, or the model engine that drafted.")
    cases: list[dict[str, Any]] = Field(
        description="Written cases: path, status, type, behavior, assertions, criteria, ..."
    )
    failed: list[dict[str, Any]] = Field(description="Cases that stayed invalid, with errors.")


class RunOutput(_Open):
    """`casegen run --json`: the runs and where the results folder is."""


class ReviewOutput(_Open):
    """`casegen review --json`: review comments per file."""


class TriageFailure(_Open):
    case: str
    slug: str
    run: int
    turn: int | None = Field(description="The first turn where the run went wrong.")
    bucket: Literal["Skill", "Instruction", "Scenario", "Tool"]
    evidence: list[dict[str, Any]] = Field(description="{kind, turn, text} items.")
    fix: str
    method: str = Field(description="rules, or rules+llm:<model>.")


class TriageOutput(_Open):
    """`casegen triage --json`."""

    results_dir: str
    failures: list[TriageFailure]
    summary: dict[str, int] = Field(description="Failed runs per bucket.")


class ExplainOutput(_Open):
    """`casegen sources --explain SKILL --json`: the skill model of one Mantle skill."""

    skill: str
    tools: list[dict[str, Any]] = Field(description="Each tool, where it is called, its gate.")


class ScoreOutput(_Open):
    """`casegen score --json`: each figure with its value, goal and the files that missed."""

    figures: dict[str, Any]
    misses: list[str] = Field(description="The figures that miss their goal.")


class MutateOutput(_Open):
    """`casegen mutate --json`: kill matrix, mutation score, survivors with suggestions."""

    score: float
    matrix: dict[str, list[str]] = Field(description="Mutant id -> the cases that kill it.")
    survivors: list[dict[str, Any]] = Field(
        description="{id, behaviour, reason, why, suggestion}: a direction for generate_cases."
    )
    outside: list[dict[str, Any]] = Field(
        default_factory=list,
        description="{id, behaviour, reason}: survivors only an outside service's answer marks "
        "(left to the cases' criteria; not in the score, in the raw figures).",
    )
    below_min_score: str | None = Field(description="Why the score fails min_score, or null.")


class StatusOutput(_Open):
    """`casegen status --json`: generated cases and whether each is still fresh."""

    summary: dict[str, int] = Field(description="fresh, edited, stale, broken, missing.")
    cases: list[dict[str, Any]]
    hints: list[str]


class ReportOutput(_Open):
    """`casegen report --json`: the batch summary, cases and the comparison."""

    results_dir: str
    summary: dict[str, Any]
    cases: list[dict[str, Any]]
    note: str | None = Field(
        description="Said when the folder held several batches and the newest was taken."
    )


class DoctorOutput(_Open):
    """`casegen doctor --json`: the endpoint checks and what casegen will use."""

    checks: list[dict[str, Any]] = Field(description="{name, status, detail} per check.")
    uses: dict[str, Any]


class ErrorOutput(_Open):
    """The structured content of a tool error (a bad path, an unknown target, ...)."""

    error: str
    hint: str | None = None


__all__ = [
    "DoctorOutput",
    "ErrorOutput",
    "ExplainOutput",
    "FileRecord",
    "GenerateOutput",
    "MutateOutput",
    "RepairOutput",
    "ReportOutput",
    "ReviewOutput",
    "RunOutput",
    "ScoreOutput",
    "SourcesOutput",
    "StatusOutput",
    "TriageFailure",
    "TriageOutput",
    "ValidateOutput",
]
