"""The tools: what each one does with its typed arguments (`_models` holds the schemas).

Each tool resolves relative paths against the server's root (the folder it runs in, or
`--root`), refuses paths that lead out of it and targets that run local code unless the server
was started with `--allow-exec` (`_guard`), and defaults `project` to the server's `--project`,
else to the nearest project at or above that folder, exactly like the CLI run there. The tools
that write files say so (`destructive_hint`). Blocking work (reading definitions, validating,
repairing) runs in a worker thread so progress notifications and other requests keep flowing.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Annotated, Any

import anyio
from mcp.server.mcpserver import Context, MCPServer
from mcp.types import CallToolResult, ToolAnnotations
from pydantic import Field

from evalcore.errors import UserError

from ..planning import CASE_TYPES
from . import _payloads as payloads
from ._generate import generate
from ._guard import Confinement, describe_failure
from ._models import (
    READ_ONLY,
    WRITES,
    DialectArg,
    GenerateOutput,
    ModelArg,
    PathsArg,
    ProjectArg,
    RepairOutput,
    ReviewOutput,
    RunOutput,
    SourcesOutput,
    TriageOutput,
    ValidateOutput,
)
from ._progress import ProgressSender
from ._results import error_result, payload_result, user_error_result
from ._suite_tools import register_suite_tools

log = logging.getLogger("casegen.mcp")


async def _guard(work: Callable[[], Awaitable[payloads.Payload]]) -> CallToolResult:
    """Run a tool body; a `UserError` becomes a tool error with the CLI's message and hint.

    Anything else is a bug: it is logged with its traceback and returned as an error naming
    the exception, so the calling agent can report it; the server keeps serving either way.
    """
    try:
        payload, is_error = await work()
    except UserError as exc:
        return user_error_result(exc)
    except Exception as exc:
        known = describe_failure(exc)
        if known is not None:  # the arguments, not casegen, are at fault
            return error_result(*known)
        log.exception("casegen tool failed")
        return error_result(
            f"internal error: {type(exc).__name__}: {exc}",
            "this is a bug in casegen; the server's log has the traceback",
        )
    return payload_result(payload, is_error=is_error)


def _in_thread(fn: Callable[[], payloads.Payload]) -> Callable[[], Awaitable[payloads.Payload]]:
    return lambda: anyio.to_thread.run_sync(fn)


def register(
    server: MCPServer,
    default_project: Path | None = None,
    confinement: Confinement | None = None,
) -> None:
    """Add the casegen tools to `server`; `confinement` is its root and exec policy."""
    guard = confinement or Confinement()
    _paths = guard.paths

    def project_of(value: str | None) -> Path | None:
        return guard.path(value, "project") if value else default_project

    register_suite_tools(
        server,
        project_of=project_of,
        guard=guard,
        run=lambda body: _guard(_in_thread(body)),
    )

    @server.tool(title="List what a project defines", annotations=READ_ONLY)
    async def list_sources(project: ProjectArg = None) -> Annotated[CallToolResult, SourcesOutput]:
        """List the ids a project defines: Mantle skills (blocks, steps, memory, tools,
        responses, confirmation-gated tools), Anychat playbooks and outreaches, Agent Skills
        and base44 fixtures. Use these ids in cases; `casegen sources --json` prints the same."""
        return await _guard(_in_thread(lambda: payloads.sources(project_of(project))))

    @server.tool(title="Validate case files", annotations=READ_ONLY)
    async def validate_cases(
        paths: PathsArg, project: ProjectArg = None, dialect: DialectArg = None
    ) -> Annotated[CallToolResult, ValidateOutput]:
        """Check case files (Mantle scenario YAML, Anychat JSON, base44 evals) against their
        dialect's schema and the project's real ids. Returns every finding with file, line,
        JSON Pointer, bad value and suggestion; isError when any file has an error."""
        return await _guard(
            _in_thread(lambda: payloads.validate(_paths(paths), project_of(project), dialect))
        )

    @server.tool(title="Repair case files", annotations=WRITES)
    async def repair_cases(
        paths: PathsArg,
        project: ProjectArg = None,
        dialect: DialectArg = None,
        dry_run: Annotated[bool, Field(description="Show the diff, write nothing.")] = False,
    ) -> Annotated[CallToolResult, RepairOutput]:
        """Apply the fixes that need no model (close ids, lossless types, enum case) and
        rewrite files canonically; returns each repair, a unified diff and what stays
        invalid (isError when a file stays invalid)."""
        return await _guard(
            _in_thread(
                lambda: payloads.repair(_paths(paths), project_of(project), dialect, dry_run)
            )
        )

    @server.tool(title="Generate cases", annotations=WRITES)
    async def generate_cases(
        targets: Annotated[
            list[str] | str,
            Field(
                description="What to cover: skill ids (Mantle), playbook ids (Anychat), "
                "agent-skill names, or 'all'. One or a list."
            ),
        ],
        project: ProjectArg = None,
        dialect: DialectArg = None,
        count: Annotated[
            int | None, Field(ge=1, description="Cases per target, most valuable first.")
        ] = None,
        types: Annotated[
            list[str] | None,
            Field(description="Case types to keep: " + ", ".join(CASE_TYPES) + "."),
        ] = None,
        direction: Annotated[
            str | None, Field(description="Free-text direction that shapes the cases.")
        ] = None,
        out: Annotated[
            str | None,
            Field(
                description="Output folder (default generated_cases/<dialect>/<target>/); "
                "with several targets, one folder per target inside it."
            ),
        ] = None,
        model: ModelArg = None,
        repair_rounds: Annotated[
            int | None,
            Field(
                ge=0,
                le=10,
                description="Model repair rounds per draft at validation and at "
                "verification, each told what to change (default 3; 0: repair by rules "
                "only; the offline engine spends none).",
            ),
        ] = None,
        force: Annotated[
            bool, Field(description="Overwrite case files that differ on disk.")
        ] = False,
        pr: Annotated[
            bool,
            Field(
                description="Commit the new cases to a new git branch (the checkout is left "
                "as it is) and write a pull-request description."
            ),
        ] = False,
        branch: Annotated[
            str | None, Field(description="Branch for pr (default casegen/<target>-<time>).")
        ] = None,
        base: Annotated[
            str | None, Field(description="Commit the pr branch starts from (default HEAD).")
        ] = None,
        push: Annotated[
            str | None, Field(description="Remote to push the pr branch to (default: none).")
        ] = None,
        ctx: Context | None = None,
    ) -> Annotated[CallToolResult, GenerateOutput]:
        """Plan, draft, validate, repair, dedupe and write cases for a target. Reports
        progress (planned/drafted/valid/repaired/failed); returns the run report with every
        written case (isError when a case failed or was not written)."""
        names = [targets] if isinstance(targets, str) else targets
        return await _guard(
            lambda: generate(
                ctx,
                targets=names,
                project=project_of(project),
                dialect=dialect,
                count=count,
                types=types,
                direction=direction,
                out=str(guard.path(out, "out")) if out else None,
                model=model,
                repair_rounds=repair_rounds,
                force=force,
                pr=pr,
                branch=branch,
                base=base,
                push=push,
            )
        )

    @server.tool(
        title="Run cases against an agent",
        annotations=ToolAnnotations(
            read_only_hint=False, destructive_hint=True, open_world_hint=True
        ),
    )
    async def run_cases(
        paths: PathsArg,
        target: Annotated[
            str,
            Field(
                description="The agent: rasa:URL, http:URL, demo:NAME, mantle:DIR (the "
                "reference agent of a Mantle project folder; mantle:DIR?mutant=ID for one of "
                "its mutants), or (only when the server runs with --allow-exec) "
                'python:MODULE:FUNCTION or command:"CMD {prompt}".'
            ),
        ],
        runs: Annotated[
            int | None,
            Field(ge=1, le=100, description="Runs per case (default: the case's samples, else 1)."),
        ] = None,
        project: ProjectArg = None,
        model: ModelArg = None,
        results: Annotated[
            str | None,
            Field(
                description="Results folder (default <project>/eval/results for Mantle, "
                "else ./results)."
            ),
        ] = None,
        ctx: Context | None = None,
    ) -> Annotated[CallToolResult, RunOutput]:
        """Play cases against an agent: simulate the user, check the assertions, judge the
        criteria, write <results>/<timestamp>/<case>/run_N.json. Reports progress per
        finished run; isError when a run failed or errored."""
        sender = ProgressSender(ctx)
        tally = {"planned": 0, "done": 0}

        def on_planned(total: int) -> None:
            tally["planned"] = total

        def on_run(record: Any) -> None:
            tally["done"] += 1
            sender.post(
                tally["done"],
                tally["planned"] or None,
                f"{record.scenario_slug} run {record.run_index}: {record.status}",
            )

        return await _guard(
            lambda: sender.run(
                lambda: payloads.run(
                    _paths(paths),
                    target=guard.target(target),
                    runs=runs,
                    project=project_of(project),
                    model=model,
                    results=guard.optional(results, "results"),
                    on_planned=on_planned,
                    on_run=on_run,
                )
            )
        )

    @server.tool(title="Review cases", annotations=READ_ONLY)
    async def review_cases(
        paths: PathsArg,
        project: ProjectArg = None,
        model: ModelArg = None,
        dialect: DialectArg = None,
        revise: Annotated[
            bool,
            Field(
                description="Send critique comments that name a concrete fix to the model's "
                "revise; each valid revision (its diff) replaces them. Nothing is written."
            ),
        ] = False,
    ) -> Annotated[CallToolResult, ReviewOutput]:
        """Review cases beyond validity (deterministic rules, plus a model critique when a
        model is configured): comments with stable codes per file; isError when a comment is
        an error."""
        return await _guard(
            lambda: payloads.review(
                _paths(paths),
                project=project_of(project),
                model=model,
                dialect=dialect,
                revise=revise,
            )
        )

    @server.tool(title="Triage failed runs", annotations=READ_ONLY)
    async def triage_results(
        results_dir: Annotated[
            str,
            Field(
                description="A results folder: <results>, <results>/<timestamp> or one "
                "case's folder (what run_cases wrote)."
            ),
        ],
        project: ProjectArg = None,
        model: ModelArg = None,
    ) -> Annotated[CallToolResult, TriageOutput]:
        """For each failed run: the turn that broke, one bucket (Skill, Instruction,
        Scenario or Tool), the evidence and a proposed fix. A report: failed runs are not a
        tool error."""
        return await _guard(
            lambda: payloads.triage(
                guard.path(results_dir, "results_dir"), project=project_of(project), model=model
            )
        )


__all__ = ["register"]
