"""`casegen generate`: plan, draft, validate, repair, dedupe and write cases.

The command's options live here; the run with its progress line and exit codes is
`_generate_run`, the summary `_generate_summary`, and `--pr` `_generate_pr`.
"""

from pathlib import Path
from typing import Annotated

import typer

from evalcore.errors import UserError

from ..collector import off_until_run
from ._app import app
from ._output import print_json


@app.command()
@off_until_run
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
    repair_rounds: Annotated[
        int | None,
        typer.Option(
            "--repair-rounds",
            min=0,
            max=10,
            help="Model repair rounds per draft at validation and at verification, each "
            "told what to change (default 3; 0: repair by rules only; the offline engine "
            "spends none).",
        ),
    ] = None,
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
    # start-up: pydantic, yaml, tomllib and 104 casegen modules
    from ..generate import build_request
    from ._generate_pr import _generate_pr, _pr_options  # start-up: rich and 11 casegen modules
    from ._generate_run import _run_flow, exit_code  # start-up: 8 casegen modules
    from ._generate_summary import _print_summary  # start-up: rich and 2 casegen modules

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
            **({"repair_rounds": repair_rounds} if repair_rounds is not None else {}),
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
