"""`casegen generate --pr`: the run written to a new branch, and what is said about it."""

from typing import TYPE_CHECKING, Any

from rich.markup import escape

from evalcore.errors import UserError

from ._generate_run import EXIT_ENDPOINT, _run_flow
from ._generate_summary import _print_summary
from ._output import print_json, stderr, stdout

if TYPE_CHECKING:
    from ..generate import GenerateRequest

if TYPE_CHECKING:  # `..pr` loads GitPython: only `--pr` needs it
    from ..pr import PrOptions, PrOutcome


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
    from ..pr import PrOptions  # start-up: git, pydantic, yaml and 115 casegen modules

    return PrOptions(branch=branch, base=base or "HEAD", push=push, run=run_target)


def _generate_pr(
    request: "GenerateRequest", options: "PrOptions", targets: list[str], as_json: bool
) -> int:
    """`generate --pr`: the same run, written to a new branch instead of the checkout.

    Returns the exit code: 1 also when no branch was made or the push failed. Run results
    (`--run`) are for the reviewer and do not change it.
    """
    # start-up: git, pydantic, yaml and 115 casegen modules
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
