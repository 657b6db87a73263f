"""`casegen generate`: plan, draft, validate, repair, dedupe and write cases."""

import signal
import threading
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer
from rich.markup import escape

from evalcore.errors import UserError

from ._app import app
from ._output import print_json, stderr, stdout

if TYPE_CHECKING:
    from rich.progress import Progress

    from ..generate import GenerateRequest

if TYPE_CHECKING:  # `..pr` loads GitPython: only `--pr` needs it
    from ..pr import PrOptions, PrOutcome


class _Counters:
    """Turns the flow's per-node updates into the progress line."""

    def __init__(self, progress: "Progress | None") -> None:
        self.progress = progress
        self.task = progress.add_task("planning", total=None) if progress else None
        self.planned = 0
        self.drafted: set[str] = set()
        self.valid: set[str] = set()
        self.repaired: set[str] = set()
        self.failed: set[str] = set()

    def __call__(self, node: str, values: dict[str, Any]) -> None:
        if node == "plan":
            self.planned = len(values.get("behaviors", []))
        for behavior_id, work in (values.get("cases") or {}).items():
            status = work["status"]
            if node == "draft":
                (self.drafted if status != "failed" else self.failed).add(behavior_id)
            elif node == "repair":
                self.repaired.add(behavior_id)
            elif status == "valid":
                self.valid.add(behavior_id)
            elif status == "failed":
                self.failed.add(behavior_id)
        self.refresh(node)

    def refresh(self, node: str) -> None:
        if self.progress is None or self.task is None:
            return
        from evalcore.llm.budget import waiting

        held = waiting()
        self.progress.update(
            self.task,
            total=self.planned or None,
            completed=len(self.valid) + len(self.failed),
            description=(
                f"{node:<8} planned {self.planned} · drafted {len(self.drafted)} · "
                f"valid {len(self.valid)} · repaired {len(self.repaired)} · "
                f"failed {len(self.failed)}"
                + (f" · {held} waiting on the rpm/tpm budget" if held else "")
            ),
        )


def _print_summary(report: dict[str, Any]) -> None:
    from ._generate_table import print_cases

    print_cases(report)
    engines = report.get("engines") or {}
    if set(engines) - {report["engine"]}:
        stdout.print(
            escape("engines: " + ", ".join(f"{n} × {name}" for name, n in engines.items()))
        )
    for source, cov in report["coverage"].items():
        line = f"coverage {source}: {cov['covered']}/{cov['elements']} elements asserted"
        touched = cov.get("touched") or []
        if touched:
            line += " · touched, no assertion checks it: " + ", ".join(touched)
        untouched = [e for e in cov["uncovered"] if e not in touched]
        if untouched:
            line += " · uncovered: " + ", ".join(untouched)
        stdout.print(escape(line))
    for dup in report["duplicates"]:
        stdout.print(
            f"[yellow]dropped duplicate[/] {escape(dup['behavior'])} ≈ "
            f"{escape(dup['duplicate_of'])} "
            f"({dup['similarity']:.2f})"
        )
    for drop in report.get("dropped", []):
        stdout.print(
            f"[yellow]dropped before writing[/] {escape(drop['behavior'])}: "
            f"{escape(str(drop['reason']))}"
        )
    for failure in report["failed"]:
        if failure.get("error_kind") == "halted":
            continue  # said once below, with the hint
        stdout.print(
            f"[red]failed[/] {escape(failure['behavior'])}: {escape(str(failure['error']))}"
        )
        for finding in failure["errors"][:5]:
            stdout.print(escape(f"    [{finding['code']}] {finding['path']} {finding['message']}"))
    _print_halt(report.get("halted"))
    for path in report["conflicts"]:
        stdout.print(
            f"[red]not written[/] {escape(str(path))}: it exists with different content (edited?); "
            "review it, or pass --force to overwrite"
        )
    llm = report["llm"]
    if report["engine"] != "offline":
        stdout.print(
            f"model calls {llm['calls']} (cache hits {llm['cache_hits']}) · tokens "
            f"{llm['input_tokens']} in / {llm['output_tokens']} out · ${llm['cost_usd']:.4f}"
        )
    stdout.print(f"run {report['run_id']} · engine {report['engine']}")


def _print_halt(halted: dict[str, Any] | None) -> None:
    if not halted:
        return
    stderr.print(
        f"[red]error:[/] drafting stopped: {escape(halted['error'])}; "
        f"{halted['not_drafted']} case(s) not drafted",
        highlight=False,
    )
    stderr.print(
        f"  [dim]hint:[/] {escape(halted['hint'])}; once it answers: {escape(halted['resume'])}",
        highlight=False,
    )


def exit_code(report: dict[str, Any]) -> int:
    """0 every planned case written; 3 drafting stopped on the endpoint; else 1."""
    if report.get("halted"):
        return EXIT_ENDPOINT
    return 0 if not report["failed"] and not report["conflicts"] else 1


EXIT_INTERRUPTED = 130
EXIT_TERMINATED = 143
#: The model endpoint is unreachable or refused the key (also `EndpointError`'s exit code).
EXIT_ENDPOINT = 3


@app.command()
def generate(
    targets: Annotated[
        list[str] | None,
        typer.Argument(help="Skill id, playbook id, agent-skill name, or 'all'."),
    ] = None,
    project: Annotated[
        Path | None, typer.Option("--project", "-p", help="Project folder (default: nearest).")
    ] = None,
    dialect: Annotated[
        str | None, typer.Option("--dialect", help="mantle | anychat | base44 (default: by kind).")
    ] = None,
    count: Annotated[
        int | None, typer.Option("--count", min=1, help="Cases per target, most valuable first.")
    ] = None,
    types: Annotated[
        str | None, typer.Option("--types", help="Comma-separated case types to keep.")
    ] = None,
    direction: Annotated[
        str | None, typer.Option("--direction", help="Free-text direction that shapes cases.")
    ] = None,
    out: Annotated[
        Path | None,
        typer.Option("--out", help="Output folder (default generated_cases/<dialect>/<target>/)."),
    ] = None,
    manifest: Annotated[
        Path | None,
        typer.Option(
            "--manifest",
            help="Provenance file (default: generated_cases/manifest.json or <out>/manifest.json).",
        ),
    ] = None,
    model: Annotated[str | None, typer.Option("--model", help="Model name, or 'offline'.")] = None,
    concurrency: Annotated[int, typer.Option("--concurrency", min=1, max=64)] = 4,
    resume: Annotated[
        str | None, typer.Option("--resume", help="Finish an interrupted run by its id.")
    ] = None,
    no_cache: Annotated[
        bool, typer.Option("--no-cache", help="Bypass the response cache.")
    ] = False,
    force: Annotated[
        bool, typer.Option("--force", help="Overwrite case files that differ on disk.")
    ] = False,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object.")] = False,
    no_verify: Annotated[
        bool,
        typer.Option(
            "--no-verify",
            help="Write drafts without playing them against the reference agent "
            "(or demo agent / static check).",
        ),
    ] = False,
    pr: Annotated[
        bool,
        typer.Option(
            "--pr",
            help="Commit the new cases to a new branch (your checkout is "
            "left as it is) and write a pull-request description.",
        ),
    ] = False,
    branch: Annotated[
        str | None,
        typer.Option("--branch", help="Branch for --pr (default casegen/<target>-<time>)."),
    ] = None,
    base: Annotated[
        str | None, typer.Option("--base", help="Commit the --pr branch starts from (HEAD).")
    ] = None,
    push: Annotated[
        str | None, typer.Option("--push", help="Remote to push the --pr branch to.")
    ] = None,
    run_target: Annotated[
        str | None,
        typer.Option("--run", help="Agent target to run the new cases against (with --pr)."),
    ] = None,
) -> None:
    """Generate valid, reference-clean, non-duplicate cases for a target.

    Exit 0 when every planned case was written valid, 1 when some failed or were not written
    (with --pr: or no branch was made, or the push failed), 2 on usage errors, 3 when the
    model endpoint is unreachable or refuses the key (before planning, or drafting stopped:
    `--resume RUN_ID` drafts the rest once it answers).
    """
    from ..generate import build_request

    pr_options = _pr_options(pr, branch, base, push, run_target, resume)
    request = None
    if resume is None:
        if not targets:
            raise UserError("name a target (a skill, playbook, agent skill) or 'all'")
        request = build_request(
            targets,
            project=project,
            dialect=dialect,
            count=count,
            types=[t.strip() for t in types.split(",") if t.strip()] if types else None,
            direction=direction,
            out=str(out) if out else None,
            manifest=str(manifest) if manifest else None,
            model=model,
            concurrency=concurrency,
            no_cache=no_cache,
            force=force,
            verify=not no_verify,
        )
    if pr_options is not None and request is not None:
        raise typer.Exit(_generate_pr(request, pr_options, targets or [], as_json))
    report = _run_flow(request, resume=resume, as_json=as_json)
    if as_json:
        print_json(report)
    else:
        _print_summary(report)
    raise typer.Exit(exit_code(report))


def _run_flow(
    request: "GenerateRequest | None", *, resume: str | None, as_json: bool, resumable: bool = True
) -> dict[str, Any]:
    """Run the flow with a progress line; Ctrl-C says how to resume (when resuming can)."""
    import asyncio

    from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn

    from ..generate import run_generation

    progress = (
        None
        if as_json
        else Progress(
            TextColumn("{task.description}"),
            BarColumn(),
            TimeElapsedColumn(),
            console=stderr,
            transient=True,
        )
    )
    counters = _Counters(progress)
    run_ids: list[str] = []

    def started(run_id: str) -> None:
        # At the start and on stderr (a terminal or not): a run killed before its end can
        # still be resumed by this id.
        run_ids.append(run_id)
        stderr.print(
            f"run {run_id}"
            + (f" (if interrupted: casegen generate --resume {run_id})" if resumable else ""),
            highlight=False,
        )

    terminated = _TermAsInterrupt()
    try:
        if progress is not None:
            progress.start()
        with terminated:
            return asyncio.run(
                run_generation(request, resume=resume, on_update=counters, on_start=started)
            )
    except KeyboardInterrupt:
        if progress is not None:
            progress.stop()
        code = EXIT_TERMINATED if terminated.seen else EXIT_INTERRUPTED
        command = f"casegen generate --resume {run_ids[0]}" if run_ids and resumable else None
        if as_json:
            print_json(
                {
                    "error": "terminated" if terminated.seen else "interrupted",
                    "hint": f"finish it with: {command}" if command else None,
                    "exit_code": code,
                    "run_id": run_ids[0] if run_ids else None,
                    "interrupted": True,
                }
            )
        else:
            stderr.print(
                f"[yellow]{'terminated' if terminated.seen else 'interrupted'}[/]"
                f"{f' — finish it with: {command}' if command else ''}"
            )
        raise typer.Exit(code) from None
    finally:
        if progress is not None:
            progress.stop()


class _TermAsInterrupt:
    """While a run is on, SIGTERM (a CI timeout, `kill`) stops it the way Ctrl-C does: the
    flow exits through its checkpoint and the run id is reported (exit 143)."""

    def __init__(self) -> None:
        self.seen = False
        self._previous: Any = None

    def _handle(self, signum: int, frame: Any) -> None:
        self.seen = True
        signal.raise_signal(signal.SIGINT)  # asyncio's own Ctrl-C path cancels the flow

    def __enter__(self) -> "_TermAsInterrupt":
        if threading.current_thread() is threading.main_thread():
            self._previous = signal.signal(signal.SIGTERM, self._handle)
        return self

    def __exit__(self, *exc: object) -> None:
        if self._previous is not None:
            signal.signal(signal.SIGTERM, self._previous)


def _pr_options(
    pr: bool,
    branch: str | None,
    base: str | None,
    push: str | None,
    run_target: str | None,
    resume: str | None,
) -> "PrOptions | None":
    """The --pr options, checked before anything runs (UserError on a bad combination)."""
    extras = {"--branch": branch, "--base": base, "--push": push, "--run": run_target}
    if not pr:
        given = [name for name, value in extras.items() if value is not None]
        if given:
            raise UserError(f"{', '.join(given)} can only be used with --pr")
        return None
    if resume is not None:
        raise UserError(
            "--pr cannot resume a run: the interrupted run's worktree is gone",
            hint="start the run again with --pr",
        )
    from ..pr import PrOptions

    return PrOptions(branch=branch, base=base or "HEAD", push=push, run=run_target)


def _generate_pr(
    request: "GenerateRequest", options: "PrOptions", targets: list[str], as_json: bool
) -> int:
    """`generate --pr`: the same run, written to a new branch instead of the checkout.

    Returns the exit code: 1 also when no branch was made or the push failed. Run results
    (`--run`) are for the reviewer and do not change it.
    """
    from ..pr import open_pull_request, prepare_pr

    plan = prepare_pr(request, options, targets=targets)
    outcome = open_pull_request(
        plan,
        request,
        generate=lambda r: _run_flow(r, resume=None, as_json=as_json, resumable=False),
    )
    report = outcome.report
    up_to_date = _up_to_date(report, outcome)
    if outcome.branch:
        report["pr"] = outcome.to_json()
    elif up_to_date:
        report["pr"] = {"branch": None, "note": UP_TO_DATE.format(base=plan.base)}
    else:
        report["pr"] = None
    if as_json:
        print_json(report)
    else:
        _print_summary(report)
        _print_pr(outcome, up_to_date=up_to_date)
    if report.get("halted"):
        return EXIT_ENDPOINT
    ok = (
        not report["failed"]
        and not report["conflicts"]
        and (outcome.branch is not None or up_to_date)
        and outcome.push_error is None
        and all(r.valid for r in outcome.validation or [])
    )
    return 0 if ok else 1


#: `--pr` when the base already holds exactly what the run generated: nothing to propose.
UP_TO_DATE = (
    "nothing to propose: {base} already holds exactly these cases (every file unchanged), "
    "so no branch was made"
)


def _up_to_date(report: dict[str, Any], outcome: "PrOutcome") -> bool:
    """No branch because nothing differs from the base, in a run that otherwise succeeded:
    the outcome a person expects after an identical `generate` (the README tour), exit 0."""
    return (
        outcome.branch is None
        and bool(report["cases"])
        and not report["failed"]
        and not report["conflicts"]
        and not report.get("halted")
        and all(c["status"] == "unchanged" for c in report["cases"])
    )


def _print_pr(outcome: "PrOutcome", *, up_to_date: bool = False) -> None:
    if outcome.branch is None:
        if up_to_date:
            stderr.print(UP_TO_DATE.format(base=outcome.base), highlight=False)
        else:
            stderr.print("[yellow]no branch made:[/] the run wrote no new or changed case files")
        return
    stdout.print()
    stdout.print(outcome.description or "", markup=False)
    stdout.print()
    stdout.print(
        f"[green]branch[/] {outcome.branch} · commit {(outcome.commit or '')[:10]} · "
        f"{len(outcome.files or [])} files · description {outcome.description_path}"
    )
    if outcome.pushed:
        stdout.print(f"[green]pushed[/] to {outcome.remote}")
    elif outcome.push_error is not None:
        stderr.print(f"[red]push failed:[/] {outcome.push_error}")
    request = outcome.pull_request
    if request is None:
        return
    if request.opened:
        stdout.print(f"[green]pull request[/] {escape(request.url or '(opened)')}")
        return
    stdout.print(f"[dim]pull request not opened: {escape(request.reason or '')}; to open it:[/]")
    if request.push_command:
        stdout.print(f"  {escape(request.push_command)}", markup=True, highlight=False)
    stdout.print(f"  {escape(request.command)}", highlight=False)
