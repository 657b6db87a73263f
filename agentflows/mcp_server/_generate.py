"""The `generate_cases` tool: the generation flow with MCP progress, optionally as a branch.

The same `build_request` / `run_generation` the CLI calls; `pr=true` goes through the same
`agentflows.pr` flow as `casegen generate --pr` (a new branch from a temporary worktree, the
person's checkout untouched). The PR flow is synchronous and calls back to generate, so it
runs in a worker thread and that thread runs the generation in its own event loop.
"""

from __future__ import annotations

import asyncio
from importlib import import_module
from pathlib import Path
from typing import TYPE_CHECKING, Any

import anyio

from ._payloads import Payload
from ._progress import GenerationProgress, ProgressSender
from ._results import Unavailable

if TYPE_CHECKING:
    from ..generate import GenerateRequest


async def generate(
    ctx: Any,
    *,
    targets: list[str],
    project: Path | None,
    dialect: str | None,
    count: int | None,
    types: list[str] | None,
    direction: str | None,
    out: str | None,
    model: str | None,
    force: bool,
    pr: bool,
    branch: str | None,
    base: str | None,
    push: str | None,
    repair_rounds: int | None = None,
) -> Payload:
    """`casegen generate --json` (with `--pr` when asked); an error when a case failed or
    was not written, or (with pr) no branch was made."""
    pr_api = _pr_api() if pr else None
    flow = _flow()
    request = await anyio.to_thread.run_sync(
        lambda: flow.build_request(
            targets,
            project=project,
            dialect=dialect,
            count=count,
            types=types,
            direction=direction,
            out=out,
            model=model,
            force=force,
            **({"repair_rounds": repair_rounds} if repair_rounds is not None else {}),
        )
    )
    sender = ProgressSender(ctx)

    async def work() -> tuple[dict[str, Any], bool]:
        if pr_api is None:
            report = await flow.run_generation(request, on_update=GenerationProgress(sender))
            ok = True
        else:
            progress = GenerationProgress(sender, threaded=True)
            report, ok = await _with_pr(pr_api, request, targets, branch, base, push, progress)
        units = (report.get("planned") or len(report["cases"]) + len(report["failed"])) + 1
        sender.post(
            units, units, f"done: {len(report['cases'])} written, {len(report['failed'])} failed"
        )
        return report, ok

    report, ok = await sender.run(work)
    ok = ok and not report["failed"] and not report["conflicts"]
    return report, not ok


def _flow() -> Any:
    """`agentflows.generate`, imported by the first `generate_cases` call: it loads the
    skill model (`evalcore.definitions`), which a server's start does not need."""
    return import_module("..generate", __package__)


def _pr_api() -> Any:
    try:
        from .. import pr  # start-up: git and 10 casegen modules
    except ImportError as exc:
        raise Unavailable(
            "generate_cases with pr", f"the --pr flow cannot be imported: {exc}"
        ) from None
    return pr


async def _with_pr(
    pr: Any,
    request: GenerateRequest,
    targets: list[str],
    branch: str | None,
    base: str | None,
    push: str | None,
    progress: GenerationProgress,
) -> tuple[dict[str, Any], bool]:
    options = pr.PrOptions(branch=branch, base=base or "HEAD", push=push)
    plan = await anyio.to_thread.run_sync(lambda: pr.prepare_pr(request, options, targets=targets))

    def generate_in_worktree(moved: GenerateRequest) -> dict[str, Any]:
        return asyncio.run(_flow().run_generation(moved, on_update=progress))

    outcome = await anyio.to_thread.run_sync(
        lambda: pr.open_pull_request(plan, request, generate=generate_in_worktree)
    )
    report = outcome.report
    report["pr"] = outcome.to_json() if outcome.branch else None
    ok = (
        outcome.branch is not None
        and outcome.push_error is None
        and all(r.valid for r in outcome.validation or [])
    )
    return report, ok


__all__ = ["generate"]
