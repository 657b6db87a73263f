"""The tools that say whether a suite is any good: `explain_skill`, `score_suite`,
`mutate_suite`, `case_status`, `report_results` and `doctor`, the CLI's `sources
--explain`, `score`, `mutate`, `status`, `report` and `doctor`. Both run the same functions
(`agentflows.commands`); each tool imports them when it is called, so the server starts
without them. Each returns what its command prints with `--json`; `isError` is what the
command's non-zero exit says."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated

from mcp.types import CallToolResult
from pydantic import Field

from .. import commands
from ..commands import explain_payload, resolve_project
from ._models import (
    READ_ONLY,
    WRITES,
    DoctorOutput,
    ExplainOutput,
    ModelArg,
    MutateOutput,
    PathsArg,
    ProjectArg,
    ReportOutput,
    ScoreOutput,
    StatusOutput,
)

if TYPE_CHECKING:
    from collections.abc import Awaitable, Callable

    from mcp.server.mcpserver import MCPServer

    from . import _payloads as payloads
    from ._guard import Confinement


def register_suite_tools(
    server: MCPServer,
    *,
    project_of: Callable[[str | None], Path | None],
    guard: Confinement,
    run: Callable[[Callable[[], payloads.Payload]], Awaitable[CallToolResult]],
) -> None:
    """Add the six tools; `run` runs a body in a worker thread and turns its outcome into
    a tool result (errors included), as for the other tools. Imported by `_tools.register`
    once `_tools` is loaded (the argument types are its own)."""

    @server.tool(title="Explain a skill", annotations=READ_ONLY)
    async def explain_skill(
        skill: Annotated[str, Field(description="A Mantle skill id (list_sources lists them).")],
        project: ProjectArg = None,
    ) -> Annotated[CallToolResult, ExplainOutput]:
        """What casegen understood of one Mantle skill: what it asks, which tools it runs
        from where and behind which gate, its branches and modes, the skills it calls, its
        success signals and what it could not read. `casegen sources --explain SKILL
        --json` prints the same; read it before trusting a generated case."""

        def body() -> payloads.Payload:
            return explain_payload(resolve_project(project_of(project)), skill), False

        return await run(body)

    @server.tool(title="Score a suite", annotations=READ_ONLY)
    async def score_suite(
        paths: PathsArg,
        project: ProjectArg = None,
        all_skills: Annotated[
            bool, Field(description="Count the gated tools of every skill, not only covered.")
        ] = False,
    ) -> Annotated[CallToolResult, ScoreOutput]:
        """Score a Mantle scenario suite against its goals: happy paths, refusals, decisive
        cases, filler, near-duplicates, schema validity and review errors, each with the
        files that lowered it (`casegen score --json`). isError when a figure misses its
        goal (`--check`)."""

        def body() -> payloads.Payload:
            result = commands.score(guard.paths(paths), project_of(project), all_skills=all_skills)
            return result.to_json(), commands.score_exit(result, check=True) != 0

        return await run(body)

    @server.tool(title="Mutation-test a suite", annotations=READ_ONLY)
    async def mutate_suite(
        paths: PathsArg,
        project: ProjectArg = None,
        min_score: Annotated[
            float, Field(ge=0, le=1, description="isError below this mutation score (0-1).")
        ] = 0.0,
        mutants: Annotated[
            list[str] | None, Field(description="Only these mutant ids (default: all).")
        ] = None,
    ) -> Annotated[CallToolResult, MutateOutput]:
        """Play a Mantle suite against the reference agent and every mutant derived from the
        project: which cases kill which mutant, the mutation score, and per survivor why it
        survives and a `generate_cases` direction that asks for the missing case (`casegen
        mutate --json`). isError when the score is below min_score."""

        def body() -> payloads.Payload:
            run_ = commands.mutate(
                guard.paths(paths), project_of(project), only=mutants, min_score=min_score
            )
            return run_.to_json(), run_.exit_code != 0

        return await run(body)

    @server.tool(title="Which generated cases went stale", annotations=READ_ONLY)
    async def case_status(
        project: Annotated[
            str | None, Field(description="Only the cases generated from this project.")
        ] = None,
        manifest: Annotated[
            str | None,
            Field(description="Manifest (default: generated_cases/manifest.json here or above)."),
        ] = None,
        stale_only: Annotated[
            bool, Field(description="List only the stale and broken cases (what to redo).")
        ] = False,
    ) -> Annotated[CallToolResult, StatusOutput]:
        """Generated cases whose definitions changed, whose ids vanished, or that were edited
        or deleted since generation, worst first, with hints to regenerate (`casegen status
        --json`). isError when a case is stale or broken."""

        def body() -> payloads.Payload:
            report = commands.status(
                guard.path(project, "project") if project else None,
                guard.optional(manifest, "manifest"),
            )
            return commands.status_payload(report, only_stale=stale_only), not report.ok

        return await run(body)

    @server.tool(title="Report on a results folder", annotations=WRITES)
    async def report_results(
        results: Annotated[
            str,
            Field(
                description="A results folder: <results>/<timestamp>, or <results> for the "
                "newest batch (the answer's `note` says so)."
            ),
        ],
        compare: Annotated[
            str | None,
            Field(description="A baseline results folder: list regressions and fixes."),
        ] = None,
        html: Annotated[
            str | None,
            Field(description="Also write the report as one self-contained HTML file here."),
        ] = None,
    ) -> Annotated[CallToolResult, ReportOutput]:
        """The batch summary, each case's status and runs passed, unreadable run files,
        and with compare what regressed and what was fixed (`casegen report --json`).
        isError when compare finds a regression."""

        def body() -> payloads.Payload:
            from evalcore.writer import atomic_write_text  # start-up: yaml and 10 casegen modules

            from ..report import render_html  # start-up: httpx, yaml, rich and 138 casegen modules

            reported = commands.report(
                guard.path(results, "results"), guard.optional(compare, "compare")
            )
            page = guard.optional(html, "html")
            if page is not None:
                atomic_write_text(page, render_html(reported.batch, reported.comparison))
            payload = reported.to_json(str(page) if page else None)
            return payload, reported.exit_code != 0

        return await run(body)

    @server.tool(title="Check the model endpoint", annotations=READ_ONLY)
    async def doctor(
        project: ProjectArg = None,
        model: ModelArg = None,
        smoke: Annotated[
            bool, Field(description="Draft one case with the model as a last check.")
        ] = True,
    ) -> Annotated[CallToolResult, DoctorOutput]:
        """Whether the configured model endpoint is reachable, takes the key, lists the
        model, gives structured output, and drafts one valid case; then what casegen will
        use (`casegen doctor --json`). With no model configured, says so (offline).
        isError when a check failed."""

        def body() -> payloads.Payload:
            report = commands.doctor(model, project_of(project), smoke=smoke)
            return report.to_json(), report.exit_code != 0

        return await run(body)


__all__ = ["register_suite_tools"]
